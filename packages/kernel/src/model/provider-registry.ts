import { UserError } from '../errors/errors.js';
import type { Model, ModelProvider } from './model.js';

/**
 * A `ModelProvider` that routes `prefix:model` names to the provider registered for `prefix`
 * (`openai:gpt-5.1` → `providers.openai.getModel('gpt-5.1')`). A name without a prefix goes to
 * `defaultProvider` (default: the first registered). Unknown prefixes throw `UserError`.
 *
 * @example createProviderRegistry({ openai: createOpenAIProvider(), anthropic: createAnthropicProvider() })
 */
export function createProviderRegistry(
  providers: Record<string, ModelProvider>,
  options: { defaultProvider?: string } = {},
): ModelProvider {
  const names = Object.keys(providers);
  if (names.length === 0)
    throw new UserError('createProviderRegistry needs at least one provider.');
  const fallback = options.defaultProvider ?? names[0];
  if (!providers[fallback])
    throw new UserError(
      `Default provider "${fallback}" is not registered (registered: ${names.join(', ')}).`,
    );
  return {
    getModel(modelName?: string): Model | Promise<Model> {
      if (!modelName) return providers[fallback].getModel(undefined);
      const colon = modelName.indexOf(':');
      if (colon > 0) {
        const prefix = modelName.slice(0, colon);
        const provider = providers[prefix];
        if (provider) return provider.getModel(modelName.slice(colon + 1));
        if (/^[a-z][a-z0-9_-]*$/.test(prefix) && !modelName.includes('/'))
          throw new UserError(
            `No model provider registered for prefix "${prefix}" in "${modelName}". Registered: ${names.join(', ')}.`,
          );
      }
      return providers[fallback].getModel(modelName);
    },
  };
}
