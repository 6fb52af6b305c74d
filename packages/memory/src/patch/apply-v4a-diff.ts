/**
 * The V4A diff of OpenAI's `apply_patch` tool (the `diff` of a Responses `apply_patch_call`
 * operation; the body of an `*** Update File:` section of the Codex patch format). Unlike a
 * unified diff it has no line numbers: each hunk is found by its context lines.
 *
 * - `create_file`: every line is `+<text>`;
 * - `update_file`: hunks of ` <context>`, `-<removed>`, `+<added>` lines (an empty line counts as
 *   empty context), each optionally introduced by `@@ <anchor>` lines (a line of the file, e.g. a
 *   `class` or `def` header, searched first so that repeated context is found in the right place)
 *   or a bare `@@`; a hunk followed by `*** End of File` must match at the end of the file.
 *
 * Context is matched exactly, then ignoring trailing whitespace, then ignoring surrounding
 * whitespace; hunks apply in order and never overlap. The file's line endings (LF or CRLF) are
 * kept. Source of the format: https://platform.openai.com/docs/guides/tools-apply-patch.
 */
import { ToolInputError } from '@baton/kernel';

const END_OF_FILE = '*** End of File';

interface Hunk {
  anchors: string[];
  /** The lines the hunk expects (context and removed lines, in order). */
  before: string[];
  /** The hunk's lines in order: `' '` context, `'-'` removed, `'+'` added. */
  ops: { mark: string; text: string }[];
  atEnd: boolean;
}

function lines(text: string): string[] {
  const out = text.split(/\r?\n/);
  if (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** The content of a new file from a `create_file` diff (every line `+`-prefixed). */
export function v4aCreateContent(diff: string): string {
  const body = lines(diff);
  const bad = body.find((line) => !line.startsWith('+'));
  if (bad !== undefined)
    throw new ToolInputError(
      `A create_file diff has only "+" lines (the new file's content); this line is not one: ${JSON.stringify(bad)}.`,
    );
  const text = body.map((line) => line.slice(1)).join('\n');
  return body.length > 0 && /\r?\n$/.test(diff) ? `${text}\n` : text;
}

function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let body = false;
  for (const raw of lines(diff)) {
    if (raw === END_OF_FILE) {
      if (!current) throw new ToolInputError(`"${END_OF_FILE}" must follow a hunk.`);
      current.atEnd = true;
      body = false;
      continue;
    }
    if (raw === '@@' || raw.startsWith('@@ ')) {
      if (!current || body) {
        current = { anchors: [], before: [], ops: [], atEnd: false };
        hunks.push(current);
        body = false;
      }
      const anchor = raw.slice(2).trim();
      if (anchor) current.anchors.push(raw.slice(3));
      continue;
    }
    if (raw.startsWith('***'))
      throw new ToolInputError(
        `Unexpected line in an update diff: ${JSON.stringify(raw)}. Send only @@ anchors and " ", "-", "+" lines.`,
      );
    const line = raw === '' ? ' ' : raw;
    const mark = line[0];
    if (mark !== ' ' && mark !== '-' && mark !== '+')
      throw new ToolInputError(
        `Invalid diff line ${JSON.stringify(raw)}: each line starts with " " (context), "-" (removed) or "+" (added).`,
      );
    if (!current || current.atEnd) {
      current = { anchors: [], before: [], ops: [], atEnd: false };
      hunks.push(current);
    }
    body = true;
    const text = line.slice(1);
    if (mark !== '+') current.before.push(text);
    current.ops.push({ mark, text });
  }
  return hunks.filter((h) => h.ops.length > 0);
}

/** Where the file's last line ends: before the empty string a final newline leaves. */
const endOf = (file: string[]) => (file[file.length - 1] === '' ? file.length - 1 : file.length);

const LEVELS: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()];

/** The first index ≥ `from` where `block` matches `file` (lenient levels in turn), or -1. */
function find(file: string[], block: string[], from: number, atEnd: boolean): number {
  for (const norm of LEVELS) {
    const matches = (at: number) => block.every((line, k) => norm(file[at + k]) === norm(line));
    if (atEnd) {
      const at = endOf(file) - block.length;
      if (at >= from && matches(at)) return at;
      continue;
    }
    for (let at = from; at + block.length <= file.length; at++) if (matches(at)) return at;
  }
  return -1;
}

/**
 * Applies an `update_file` V4A diff to `original` and returns the new text.
 * @throws ToolInputError (the model can re-read the file and retry) when the diff has a line of
 *   no known kind, is empty, or a hunk's anchor or context is not found in the file.
 */
export function applyV4ADiff(original: string, diff: string): string {
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const file = original.split(/\r?\n/);
  const hunks = parseHunks(diff);
  if (hunks.length === 0) throw new ToolInputError('The update diff has no changes.');
  const out: string[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    let from = cursor;
    for (const anchor of hunk.anchors) {
      const at = find(file, [anchor], from, false);
      if (at < 0)
        throw new ToolInputError(
          `The anchor "@@ ${anchor}" is not a line of the file (after line ${from}). Read the file again and send a diff against its current content. Nothing was changed.`,
        );
      from = at + 1;
    }
    const at =
      hunk.before.length === 0
        ? hunk.atEnd
          ? endOf(file)
          : from
        : find(file, hunk.before, from, hunk.atEnd);
    if (at < 0)
      throw new ToolInputError(
        `These lines of the diff were not found in the file${hunk.atEnd ? ' at its end' : ''}:\n${hunk.before.join('\n')}\nRead the file again and send a diff against its current content. Nothing was changed.`,
      );
    out.push(...file.slice(cursor, at));
    let j = at;
    for (const op of hunk.ops) {
      if (op.mark === '+') out.push(op.text);
      else if (op.mark === ' ')
        out.push(file[j++]); // the file's own line (it may differ in whitespace)
      else j++;
    }
    cursor = at + hunk.before.length;
  }
  out.push(...file.slice(cursor));
  return out.join(eol);
}
