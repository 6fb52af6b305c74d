import * as semconv from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { ERROR_TYPE, ERROR_TYPE_OTHER, GEN_AI, GEN_AI_OPERATION } from './gen-ai-attributes.js';

describe('GenAI attribute names', () => {
  it('match the pinned @opentelemetry/semantic-conventions 1.45.0 incubating constants', () => {
    const table = incubating as unknown as Record<string, string>;
    for (const [key, value] of Object.entries(GEN_AI)) {
      expect(table[`ATTR_GEN_AI_${key}`], key).toBe(value);
    }
    for (const [key, value] of Object.entries(GEN_AI_OPERATION)) {
      expect(table[`GEN_AI_OPERATION_NAME_VALUE_${key}`], key).toBe(value);
    }
    expect(semconv.ATTR_ERROR_TYPE).toBe(ERROR_TYPE);
    expect(semconv.ERROR_TYPE_VALUE_OTHER).toBe(ERROR_TYPE_OTHER);
  });
});
