import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { startGarbageCollection } from './garbage.ts';

describe('startGarbageCollection', () => {
  it('collects without leaving a gc global in this or any later context', () => {
    const hadGc = typeof globalThis.gc === 'function';
    startGarbageCollection();
    startGarbageCollection();
    expect(typeof globalThis.gc === 'function').toBe(hadGc);
    expect(runInNewContext('typeof gc')).toBe(hadGc ? 'function' : 'undefined');
  });
});
