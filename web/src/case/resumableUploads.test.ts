import { describe, expect, it } from 'vitest';
import { isSettled, timeLeftText } from './resumableUploads.ts';

describe('an upload row in Indonesian', () => {
  it('says the time left in seconds, then whole minutes, and when it is not known yet', () => {
    expect(timeLeftText(null)).toBe('menghitung sisa waktu…');
    expect(timeLeftText(0)).toBe('sisa 1 detik');
    expect(timeLeftText(42)).toBe('sisa 42 detik');
    expect(timeLeftText(61)).toBe('sisa 2 menit');
  });

  it('treats accepted, refused, stopped and paused files as settled for Simpan, never one on its way', () => {
    expect(['accepted', 'refused', 'failed', 'paused'].every((p) => isSettled(p as never))).toBe(true);
    expect(['waiting', 'uploading', 'retrying', 'checking'].some((p) => isSettled(p as never))).toBe(false);
  });
});
