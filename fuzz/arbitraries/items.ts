/**
 * Transcript items for the converter targets: every item the kernel's item schema accepts is
 * fair input (`loadItemSchemas().item`), so the generator mixes well-formed items of every kind
 * with items whose optional fields are missing, of the wrong type, or hostile, and unknown item
 * types — then keeps only what the schema accepts.
 */
import { type Item, loadItemSchemas } from '@baton/kernel';
import fc from 'fast-check';

/** Values that often break code that trusts its input. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      null,
      '',
      ' ',
      0,
      -1,
      1.5,
      2 ** 53,
      -1e308,
      '__proto__',
      'constructor',
      'toString',
      true,
      false,
      [],
      {},
      [null],
      { type: 'x' },
      { __proto__: null, length: 1 },
      '{}',
      '[]',
      '%',
      '%E0%A4%A',
      'data:',
      'null',
      'text',
      'tool_use',
      'message',
    ),
  },
  fc.string({ maxLength: 10 }),
  fc.integer(),
);

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  fc.constantFrom('', 'Paris', 'héllo 😀', '\u0000', '\ud800', '\r\n'),
);
const id = fc.oneof(
  fc.constantFrom(
    'call_1',
    'call_Ab3',
    'toolu_01X',
    'fc_1',
    'msg_1',
    'rs_1',
    'D681PevKs',
    '',
    'a b',
    'ü/ß',
    '__proto__',
  ),
  fc.string({ maxLength: 30 }),
);
const base64 = fc.oneof(
  fc.base64String({ maxLength: 24 }),
  fc.constantFrom('@@@@', 'a', 'aGVsbG8', ' aGVs bG8= ', '===='),
);
const mediaType = fc.constantFrom(
  'image/png',
  'image/jpeg',
  'application/pdf',
  'text/plain',
  'application/zip',
  '',
  'text/html',
);
const dataUrl = fc.oneof(
  fc.tuple(mediaType, base64).map(([m, b]) => `data:${m};base64,${b}`),
  fc
    .tuple(
      mediaType,
      fc.oneof(
        fc.string({ maxLength: 16 }),
        fc.constantFrom('100%', '%41%42', '%E0%A4%A', '%zz', 'h%C3%A9llo'),
      ),
    )
    .map(([m, t]) => `data:${m},${t}`),
  fc.constantFrom(
    'data:,',
    'data:;base64,',
    'https://example.com/a.png',
    'file:///etc/passwd',
    'not a url',
  ),
);

/** An object with a few extra fields of any kind. */
const extras = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  fc.dictionary(
    fc.constantFrom(
      'id',
      'status',
      'annotations',
      'logprobs',
      'detail',
      'phase',
      'extra',
      '__proto__',
    ),
    nasty,
    { maxKeys: 2 },
  ),
);
const withExtras = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, extras).map(([v, e]) => ({ ...e, ...v }));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Content parts: well-formed ones of every type, and parts with missing or wrong fields. */
export const contentPart: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 4,
    arbitrary: withExtras(fc.record({ type: fc.constantFrom('input_text', 'output_text'), text })),
  },
  { weight: 1, arbitrary: withExtras(fc.record({ type: fc.constant('refusal'), refusal: text })) },
  {
    weight: 2,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constant('input_image'),
          image_url: maybe(dataUrl),
          file_id: maybe(id),
          detail: maybe(fc.constantFrom('auto', 'low', 'high')),
        },
        { requiredKeys: ['type'] },
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constant('input_file'),
          file_data: maybe(fc.oneof(dataUrl, base64)),
          file_url: maybe(dataUrl),
          file_id: maybe(id),
          filename: maybe(text),
        },
        { requiredKeys: ['type'] },
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constantFrom(
            'input_text',
            'output_text',
            'refusal',
            'input_image',
            'input_file',
            'input_audio',
            'thinking',
            '',
          ),
          text: maybe(nasty),
          refusal: maybe(nasty),
          image_url: maybe(nasty),
          file_data: maybe(nasty),
        },
        { requiredKeys: ['type'] },
      ),
    ),
  },
);

const content = fc.oneof(text, fc.array(contentPart, { maxLength: 4 }));
const args = fc.oneof(
  fc
    .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
    .map((o) => JSON.stringify(o)),
  fc.constantFrom(
    '',
    '{',
    '[1,2]',
    '"x"',
    'null',
    '{"city":"Paris"}',
    ' {"a":1} ',
    '{"__proto__":{"x":1}}',
  ),
  fc.string({ maxLength: 20 }),
);
const providerData = fc.oneof(
  fc.constant(undefined),
  fc.record({
    anthropic: fc.oneof(
      nasty,
      fc.record(
        {
          type: fc.constantFrom(
            'thinking',
            'redacted_thinking',
            'text',
            'server_tool_use',
            'tool_use',
          ),
          signature: maybe(nasty),
          data: maybe(nasty),
          caller: maybe(
            fc.oneof(
              nasty,
              fc.record({
                type: fc.constantFrom('direct', 'code_execution_20250825'),
                tool_id: maybe(id),
              }),
            ),
          ),
          container: maybe(
            fc.oneof(
              nasty,
              fc.record({
                id: maybe(nasty),
                expires_at: maybe(
                  fc.constantFrom('2001-01-01T00:00:00Z', '2099-01-01T00:00:00Z', 'soon'),
                ),
              }),
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.record({
    chat: fc.oneof(
      nasty,
      fc.record(
        { reasoning_content: maybe(nasty), extra_content: maybe(nasty) },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.dictionary(fc.constantFrom('openai', 'anthropic', 'chat', 'x'), nasty, { maxKeys: 2 }),
);

/** Candidate items: every kind, well-formed or not (the schema filter decides). */
const candidate: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 4,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constant('message'),
          role: fc.constantFrom('user', 'assistant', 'system', 'developer'),
          content,
          provider_data: providerData,
        },
        { requiredKeys: ['type', 'role', 'content'] },
      ),
    ),
  },
  {
    weight: 3,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constant('function_call'),
          call_id: id,
          name: fc.oneof(fc.constantFrom('get_weather', ''), fc.string({ maxLength: 8 })),
          arguments: args,
          provider_data: providerData,
          id: maybe(id),
        },
        { requiredKeys: ['type', 'call_id', 'name', 'arguments'] },
      ),
    ),
  },
  {
    weight: 3,
    arbitrary: withExtras(
      fc.record({ type: fc.constant('function_call_output'), call_id: id, output: content }),
    ),
  },
  {
    weight: 2,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constant('reasoning'),
          summary: fc.array(fc.record({ type: fc.constantFrom('summary_text', 'x'), text }), {
            maxLength: 3,
          }),
          encrypted_content: maybe(fc.oneof(fc.constant(null), fc.string({ maxLength: 8 }))),
          provider_data: providerData,
          id: maybe(id),
        },
        { requiredKeys: ['type', 'summary'] },
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: withExtras(
      fc.record(
        {
          type: fc.constantFrom(
            'hosted_tool_call',
            'web_search_call',
            'compaction',
            'item_reference',
            'mcp_approval_request',
            'mcp_call',
            'image_generation_call',
            'x-unknown',
          ),
          provider_data: providerData,
          name: maybe(nasty),
          id: maybe(id),
        },
        { requiredKeys: ['type'] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        'type',
        'role',
        'content',
        'call_id',
        'name',
        'arguments',
        'output',
        'summary',
      ),
      nasty,
      { maxKeys: 5 },
    ),
  },
);

/** Lists of items the kernel's item schema accepts (JSON round-tripped, as a session would load them). */
export async function itemsArbitrary(maxLength = 6): Promise<fc.Arbitrary<Item[]>> {
  const { item } = await loadItemSchemas();
  const accepted = candidate
    .map((i) => JSON.parse(JSON.stringify(i)) as Record<string, unknown>)
    .filter((i) => item.safeParse(i).success) as unknown as fc.Arbitrary<Item>;
  return fc.array(accepted, { maxLength });
}
