/**
 * The body targets: mutated recorded non-streamed bodies of one API (or an HTML page instead)
 * through its converter and the kernel-schema check the models apply, which must give a valid
 * response or a `ModelCallError` / `ModelBehaviorError`.
 */
import type { ModelResponse } from '@baton/kernel';
import fc from 'fast-check';
import { assertValidOutputItems } from '../../packages/provider-utils/src/output-check.js';
import type { FuzzTarget } from '../fuzz-target.js';
import { checkModelError, checkResponse, isModelError } from './checks.js';
import { bodyCorpus, type Dialect } from './corpus.js';
import { bodyMutations, mutateBody } from './mutations.js';

const HTML = '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>';

/** A body target for one dialect's converter. */
export function bodyTarget(
  dialect: Dialect,
  name: string,
  convert: (body: any) => ModelResponse,
): FuzzTarget<unknown> {
  return {
    name,
    description: `mutated recorded ${dialect} bodies through the converter and output check: a valid response, or a ModelCallError/ModelBehaviorError`,
    arbitrary: () => {
      const corpus = bodyCorpus(dialect);
      return fc
        .tuple(fc.nat({ max: corpus.length - 1 }), bodyMutations, fc.nat({ max: 30 }))
        .map(([i, m, html]) => (html === 0 ? HTML : mutateBody(corpus[i], m)));
    },
    run: async (body) => {
      const response = convert(body);
      await assertValidOutputItems(response.output, dialect);
      return response;
    },
    expected: isModelError,
    checkError: checkModelError,
    check: (response) => checkResponse(response, name),
  };
}
