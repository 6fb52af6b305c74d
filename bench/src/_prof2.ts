import { createBatonAdapter } from './adapters/baton.js';
const mode = process.argv[2];
if (mode === 'oa') { const m = await import('./adapters/openai-agents.js'); const x = m.createOpenAIAgentsAdapter(); await x.s1(); }
if (mode === 'oa-import') { await import('@openai/agents'); }
if (mode === 'ai') { const m = await import('./adapters/ai-sdk.js'); const x = m.createAiSdkAdapter(); await x.s1(); }
const a = createBatonAdapter();
for (const w of ['s5', 's1', 's2']) {
const fn = w === 's5' ? a.s5.run : w === 's1' ? a.s1 : a.s2;
const n = w === 's5' ? 200 : 3000;
for (let i = 0; i < 50; i++) await fn();
const t0 = performance.now();
for (let i = 0; i < n; i++) await fn();
console.log(mode, w, ((performance.now() - t0) * 1000 / n).toFixed(1), 'µs/run');
}
