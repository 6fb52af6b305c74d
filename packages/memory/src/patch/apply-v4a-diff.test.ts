/** The V4A diff of OpenAI's apply_patch tool: create, update with context, anchors, EOF, errors. */
import { ToolInputError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { applyV4ADiff, v4aCreateContent } from './apply-v4a-diff.js';

const file = [
  'import os',
  '',
  'def greet(name):',
  '    print("hi", name)',
  '',
  'def main():',
  '    greet("x")',
  '    return 0',
  '',
].join('\n');

describe('V4A diffs', () => {
  it('creates a file from "+" lines (a final newline when the diff ends with one)', () => {
    expect(v4aCreateContent('+a\n+\n+b\n')).toBe('a\n\nb\n');
    expect(v4aCreateContent('+only')).toBe('only');
    expect(() => v4aCreateContent('+a\nb\n')).toThrow(ToolInputError);
  });

  it('updates by context, keeping the rest of the file and its final newline', () => {
    const diff = [
      '@@ def greet(name):',
      '-    print("hi", name)',
      '+    print("hello", name)',
      '+    return name',
    ].join('\n');
    expect(applyV4ADiff(file, diff)).toBe(
      file.replace('    print("hi", name)', '    print("hello", name)\n    return name'),
    );
  });

  it('uses anchors to pick the right one of repeated context, applies several hunks in order', () => {
    const twice = [
      'class A:',
      '    def run(self):',
      '        pass',
      'class B:',
      '    def run(self):',
      '        pass',
      '',
    ].join('\n');
    const diff = [
      '@@ class B:',
      '@@     def run(self):',
      '-        pass',
      '+        return 2',
    ].join('\n');
    // The first "pass" would match too; the anchors pick the one in class B.
    expect(applyV4ADiff(twice, diff)).toBe(
      twice.replace(/(class B:\n {4}def run\(self\):\n) {8}pass/, '$1        return 2'),
    );
    expect(() => applyV4ADiff(twice, '@@ class C:\n-        pass')).toThrow(/anchor "@@ class C:"/);
    const ok = [
      '@@ class A:',
      '     def run(self):',
      '-        pass',
      '+        return 1',
      '@@ class B:',
      '     def run(self):',
      '-        pass',
      '+        return 2',
    ].join('\n');
    expect(applyV4ADiff(twice, ok)).toBe(
      twice.replace('        pass', '        return 1').replace(/ {8}pass/, '        return 2'),
    );
  });

  it('matches at the end for "*** End of File", tolerates trailing whitespace, keeps CRLF', () => {
    const crlf = 'a\r\nb  \r\nc\r\n';
    expect(applyV4ADiff(crlf, ' b\n-c\n+C\n*** End of File')).toBe('a\r\nb  \r\nC\r\n');
    expect(applyV4ADiff('x\ny\n', '+z\n*** End of File')).toBe('x\ny\nz\n');
  });

  it('refuses context that is not in the file, and lines of no known kind, naming them', () => {
    expect(() => applyV4ADiff(file, ' def nope():\n-    pass')).toThrow(
      /not found in the file:\ndef nope\(\):/,
    );
    expect(() => applyV4ADiff(file, '*** Update File: x.py')).toThrow(/Unexpected line/);
    expect(() => applyV4ADiff(file, '~ what')).toThrow(/Invalid diff line/);
    expect(() => applyV4ADiff(file, '')).toThrow(/no changes/);
  });
});
