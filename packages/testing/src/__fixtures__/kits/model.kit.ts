/**
 * `describeModelConformance` on the toy model: once correct (every case must pass), and once per
 * planted defect (the case that targets it must fail). Run by `kits.test.ts` in a child vitest.
 */
import { describeModelConformance } from '@baton/testing/vitest';
import { type ToyBug, ToyModel, toyFixtures } from '../../__tests__/toy-model.js';

const bugs: ToyBug[] = [
  'drops_tool_results',
  'drops_developer_messages',
  'crashes_on_file_ids',
  'ignores_output_schema',
  'ignores_abort_signal',
  'no_stream_usage',
  'server_error_not_retryable',
  'retries_by_itself',
  'raw_network_errors',
  'cut_stream_completes',
];

describeModelConformance('toy', (server) => new ToyModel(server.url), toyFixtures());
for (const bug of bugs)
  describeModelConformance(`toy with ${bug}`, (server) => new ToyModel(server.url, bug), toyFixtures());
