/**
 * Example: structured output with a zod `outputType`.
 *
 * 1. An extraction agent with `outputType: ContactCard` returns a typed object: the run sends
 *    the schema to the model as `outputSchema` (OpenAI-strict JSON Schema), parses the model's
 *    JSON text and validates it; `result.finalOutput` is typed `ContactCard | undefined`.
 * 2. When the model's text does not match the schema, the run throws `ModelBehaviorError`; the
 *    example catches it and prints its message and `error.rawText` (the offending text).
 *
 * Scripted models (no network, no API key). Exits non-zero when a check fails.
 */
import { Agent, ModelBehaviorError, run } from '@baton/kernel';
import { msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

const ContactCard = z.object({
  name: z.string(),
  email: z.string().describe('Email address'),
  company: z.string().nullable(),
  topics: z.array(z.string()),
});
type ContactCard = z.infer<typeof ContactCard>;

const EMAIL = `Hi! Ana Lima here (ana.lima@example.com) from Tiles & Co. We'd like to talk about
bulk pricing and delivery times.`;

const goodModel = new ScriptedModel([
  [
    msg(
      JSON.stringify({
        name: 'Ana Lima',
        email: 'ana.lima@example.com',
        company: 'Tiles & Co',
        topics: ['bulk pricing', 'delivery times'],
      }),
    ),
  ],
]);
const BAD_TEXT = '{"name": "Ana Lima", "email": "ana.lima@example.com", "topics": "pricing"}';
const badModel = new ScriptedModel([[msg(BAD_TEXT)]]);

const extractor = new Agent({
  name: 'Contact Extractor',
  instructions: 'Extract the sender as a contact card.',
  outputType: ContactCard,
  model: goodModel,
});

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(): Promise<void> {
  console.log('== 1. A valid structured output');
  const result = await run(extractor, EMAIL);
  // `finalOutput` is typed from the zod schema: no cast needed.
  const card: ContactCard | undefined = result.finalOutput;
  console.log('  finalOutput:', card);
  if (card)
    console.log(`  typed access: ${card.name} <${card.email}>, ${card.topics.length} topics`);

  const schema = goodModel.requests[0]?.outputSchema;
  console.log(`  outputSchema sent to the model: ${JSON.stringify(schema)}`);
  check(
    'the model request carried the output schema (strict)',
    schema?.strict === true &&
      Object.keys((schema.schema.properties as object) ?? {}).join(',') ===
        'name,email,company,topics',
  );
  check('finalOutput is an object, not text', typeof card === 'object' && card !== null);
  check('finalOutput passed the schema', ContactCard.safeParse(card).success);
  check(
    'fields were extracted',
    card?.email === 'ana.lima@example.com' && card.company === 'Tiles & Co',
  );

  console.log('\n== 2. An invalid structured output');
  const strictExtractor = extractor.clone({ model: badModel });
  try {
    const bad = await run(strictExtractor, EMAIL);
    check(
      'invalid output raised ModelBehaviorError',
      false,
      `got ${JSON.stringify(bad.finalOutput)}`,
    );
  } catch (error) {
    if (!ModelBehaviorError.isInstance(error)) throw error;
    console.log(`  caught ${error.name}: ${error.message.replaceAll('\n', '\n    ')}`);
    console.log(`  error.rawText: ${error.rawText}`);
    check('invalid output raised ModelBehaviorError', true);
    check('error.rawText holds the model text', error.rawText === BAD_TEXT);
    check('the message names the agent', error.message.includes('Contact Extractor'));
  }
}

main().then(
  () => {
    if (failures.length > 0) {
      console.error(
        `structured-output example: ${failures.length} check(s) failed: ${failures.join('; ')}`,
      );
      process.exitCode = 1;
    } else console.log('structured-output example: all checks passed.');
  },
  (error) => {
    console.error('structured-output example failed:', error);
    process.exitCode = 1;
  },
);
