import { afterEach, describe, expect, it, vi } from 'vitest';
import { pump, Source } from './__fixtures__/pump-source.js';
import { type PumpSteps, StreamPump } from './stream-pump.js';

const tick = () => new Promise((r) => setImmediate(r));

async function all(it: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const e of it) seen.push(e);
  return seen;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('StreamPump', () => {
  it('hands out every event step pushes, in order, then what end pushes', async () => {
    const source = new Source(['a', 'b']);
    expect(await all(pump(source))).toEqual(['raw:a', 'a', 'raw:b', 'b', 'end']);
    expect(source.returned).toBe(0);
  });

  it('opens nothing before the first next()', async () => {
    const open = vi.fn(() => new Source(['a']));
    const it = pump(open);
    await tick();
    expect(open).not.toHaveBeenCalled();
    await it.next();
    expect(open).toHaveBeenCalledOnce();
  });

  it('serializes overlapping next() calls', async () => {
    const source = new Source([], true);
    const it = pump(source);
    const first = it.next();
    const second = it.next();
    const third = it.next();
    await tick();
    source.push('a');
    expect(await Promise.all([first, second])).toEqual([
      { value: 'raw:a', done: false },
      { value: 'a', done: false },
    ]);
    await tick();
    source.push(undefined);
    expect(await third).toEqual({ value: 'end', done: false });
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('reads on when step pushes nothing, and awaits an async step', async () => {
    const source = new Source(['skip', 'a', 'b']);
    const it = pump(source, {
      step: (event, out) => {
        if (event === 'skip') return undefined;
        if (event === 'b')
          return Promise.resolve().then(() => {
            out.push('async:b');
            return undefined;
          });
        out.push(event);
        return undefined;
      },
    });
    expect(await all(it)).toEqual(['a', 'async:b', 'end']);
  });

  it('return() during a read: the read resolves done, the source is closed, events are dropped', async () => {
    const source = new Source([], true);
    const it = pump(source);
    const pending = it.next();
    await tick();
    await it.return();
    expect(source.returned).toBe(1);
    source.push('a');
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('break in for await closes the source', async () => {
    const source = new Source(['a', 'b', 'c']);
    for await (const e of pump(source)) if (e === 'a') break;
    expect(source.returned).toBe(1);
  });

  it('a step error is mapped with phase "step", closes the source and ends the stream', async () => {
    const source = new Source(['a', 'bad']);
    const it = pump(source, {
      step: (event, out) => {
        if (event === 'bad') throw new Error('no');
        out.push(event);
        return undefined;
      },
    });
    expect(await it.next()).toEqual({ value: 'a', done: false });
    await expect(it.next()).rejects.toThrow('step: no');
    expect(source.returned).toBe(1);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('an end error is mapped with phase "step"', async () => {
    const it = pump(new Source([]), {
      end: () => {
        throw new Error('cut');
      },
    });
    await expect(it.next()).rejects.toThrow('step: cut');
  });

  it('a read failure is mapped with phase "read"; the failed source is not closed again', async () => {
    const source = new Source([], true);
    const it = pump(source);
    const first = it.next();
    await tick();
    source.fail(new Error('reset'));
    await expect(first).rejects.toThrow('read: reset');
    expect(source.returned).toBe(0);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('a read that throws synchronously is a read failure too', async () => {
    const source = new Source(['a']);
    source.next = () => {
      throw new Error('sync');
    };
    await expect(pump(source).next()).rejects.toThrow('read: sync');
  });

  it('an open failure is mapped with phase "open"', async () => {
    const it = new StreamPump<string, string>({
      open: () => Promise.reject(new Error('refused')),
      step: () => undefined,
      end: () => undefined,
      error: (error, phase) => new Error(`${phase}: ${(error as Error).message}`),
    });
    await expect(it.next()).rejects.toThrow('open: refused');
  });

  it("'reopen' closes the source and opens the next one", async () => {
    const sources = [new Source(['a', 'pause', 'never']), new Source(['b'])];
    let opened = 0;
    const it = pump(() => sources[opened++], {
      step: (event, out) => {
        out.push(event);
        return event === 'pause' ? 'reopen' : undefined;
      },
    });
    expect(await all(it)).toEqual(['a', 'pause', 'b', 'end']);
    expect(sources[0].returned).toBe(1);
    expect(sources[1].returned).toBe(0);
  });

  describe("after 'stop'", () => {
    const stopAt = (last: string): Partial<PumpSteps<string, string>> => ({
      step: (event, out) => {
        out.push(event);
        return event === last ? 'stop' : undefined;
      },
    });

    it('the source is read to its end, not closed (the connection stays reusable)', async () => {
      const source = new Source(['a', 'done']);
      expect(await all(pump(source, stopAt('done')))).toEqual(['a', 'done']);
      await tick();
      expect(source.reads).toBe(3);
      expect(source.returned).toBe(0);
    });

    it('a source holding more events is closed', async () => {
      const source = new Source(['done', 'extra']);
      expect(await all(pump(source, stopAt('done')))).toEqual(['done']);
      await tick();
      expect(source.returned).toBe(1);
    });
  });
});
