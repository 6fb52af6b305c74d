import { createBatonAdapter } from './adapters/baton.js';
const a = createBatonAdapter();
const which = process.argv[2];
const n = Number(process.argv[3] ?? 300);
const fn = which === 's6' ? a.s6(10000) : which === 's6s' ? a.s6(100) : which === 's5' ? a.s5.run : which === 's1' ? a.s1 : which === 's2' ? a.s2 : a.s3;
for (let i = 0; i < 50; i++) await fn();
const t0 = performance.now();
for (let i = 0; i < n; i++) await fn();
console.log(which, ((performance.now() - t0) * 1000 / n).toFixed(1), 'µs/run');
