import { describe, expect, it } from 'vitest';
import { sentenceSplitter } from './sentence-splitter.js';

describe('sentenceSplitter', () => {
  const split = sentenceSplitter();
  it('speaks complete sentences once they reach the minimum length', () => {
    expect(split('Hi. How are')).toEqual(['', 'Hi. How are']);
    expect(split('Hello there, friend. How are you? I am')).toEqual([
      'Hello there, friend. How are you?',
      'I am',
    ]);
    expect(split('One sentence only.')).toEqual(['', 'One sentence only.']);
  });
  it('keeps the trailing space so the next delta does not glue onto the last word', () => {
    const [speak, rest] = split('That is all for now. He ');
    expect(speak).toBe('That is all for now.');
    expect(rest + 'arrived').toBe('He arrived');
  });
});
