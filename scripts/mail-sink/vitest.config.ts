import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mail-sink', include: ['**/*.test.ts'], testTimeout: 15_000 },
});
