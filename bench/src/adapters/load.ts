/**
 * Loads an adapter by runtime id. Each SDK is imported only when its adapter is asked for, so a
 * child process measuring one runtime's memory holds that runtime alone.
 */
import type { Adapter, RuntimeId } from '../types.js';

/** Loads one adapter; rejects when the runtime cannot be imported (e.g. Baton's `run` missing). */
export async function loadAdapter(id: RuntimeId): Promise<Adapter> {
  switch (id) {
    case 'baton':
      return (await import('./baton.js')).createBatonAdapter();
    case 'openai-agents':
      return (await import('./openai-agents.js')).createOpenAIAgentsAdapter();
    case 'ai-sdk':
      return (await import('./ai-sdk.js')).createAiSdkAdapter();
  }
}
