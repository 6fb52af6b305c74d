export { REDIS_SESSION_ENTRY_VERSION } from './redis-entry.js';
export {
  ADD_ITEMS_SCRIPT,
  RedisSession,
  type RedisSessionFromUrlOptions,
  type RedisSessionMetadata,
  type RedisSessionOptions,
} from './redis-session.js';
