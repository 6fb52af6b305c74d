import { MemorySession } from '@baton/kernel';
import { describeSessionConformance } from '@baton/testing/vitest';

describeSessionConformance('MemorySession', (sessionId) => new MemorySession({ sessionId }));
