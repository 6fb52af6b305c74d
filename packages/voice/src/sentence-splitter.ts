/**
 * Splitting streamed text for speech: the pipeline speaks whole sentences as soon as they are
 * complete instead of waiting for the whole answer (OpenAI Agents SDK `get_sentence_based_splitter`).
 */

/** Takes the text buffered so far; returns the part to speak now and the rest to keep. */
export type TextSplitter = (buffer: string) => [speak: string, rest: string];

/**
 * Speaks every complete sentence (ending in `.`, `!` or `?` followed by white space) once they
 * add up to `minLength` characters (default 20); the unfinished last sentence is kept, with
 * its trailing white space so the next delta does not glue onto its last word.
 */
export function sentenceSplitter(options: { minLength?: number } = {}): TextSplitter {
  const minLength = options.minLength ?? 20;
  return (buffer) => {
    const sentences = buffer.trim().split(/(?<=[.!?])\s+/);
    if (sentences.length < 2) return ['', buffer];
    const speak = sentences.slice(0, -1).join(' ');
    if (speak.length < minLength) return ['', buffer];
    const trailing = buffer.slice(buffer.trimEnd().length);
    return [speak, sentences[sentences.length - 1] + trailing];
  };
}
