/** Mutated recorded Anthropic Messages bodies → a valid response or a model error. */
import { convertFromAnthropicOutput } from '../../packages/provider-anthropic/src/convert-from-anthropic-output.js';
import { bodyTarget } from '../arbitraries/bodies.js';

export default bodyTarget('anthropic', 'anthropic.body', (body) =>
  convertFromAnthropicOutput(body),
);
