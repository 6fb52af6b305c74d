export {
  DEFAULT_SQLITE_SESSION_TABLE,
  SQLITE_SESSION_SCHEMA_VERSION,
} from './sqlite-schema.js';
export { SqliteSession, type SqliteSessionOptions } from './sqlite-session.js';
