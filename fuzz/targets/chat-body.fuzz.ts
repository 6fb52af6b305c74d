/** Mutated recorded Chat Completions bodies → a valid response or a model error. */
import { convertFromChatOutput } from '../../packages/provider-chat/src/convert-from-chat-output.js';
import { bodyTarget } from '../arbitraries/bodies.js';

export default bodyTarget('chat', 'chat.body', (body) => convertFromChatOutput(body, 'chat'));
