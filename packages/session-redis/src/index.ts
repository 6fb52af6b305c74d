export { REDIS_SESSION_ENTRY_VERSION } from './redis-entry.js';
export {
  RedisSession,
  type RedisSessionFromUrlOptions,
  type RedisSessionMetadata,
  type RedisSessionOptions,
} from './redis-session.js';
