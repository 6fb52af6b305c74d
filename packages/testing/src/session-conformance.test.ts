import { MemorySession } from '@baton/kernel';
import { describeSessionConformance } from '@baton/testing/vitest';

// One in-process store: the same id gives the same session (the v2 cases need one store per id).
const sessions = new Map<string, MemorySession>();
describeSessionConformance(
  'MemorySession',
  (sessionId) => {
    const session = sessions.get(sessionId) ?? new MemorySession({ sessionId });
    sessions.set(sessionId, session);
    return session;
  },
  { version: 'v2' },
);
