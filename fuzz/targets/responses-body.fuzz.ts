/** Mutated recorded OpenAI Responses bodies → a valid response or a model error. */
import { fromResponsesResponse } from '../../packages/provider-openai/src/convert-from-openai-output.js';
import { bodyTarget } from '../arbitraries/bodies.js';

export default bodyTarget('responses', 'responses.body', (body) => fromResponsesResponse(body));
