import { MemorySession } from '@baton/kernel';
import { describeSessionConformance } from '@baton/testing';

describeSessionConformance('MemorySession', (sessionId) => new MemorySession({ sessionId }));
