import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'support', include: ['**/*.test.ts'], testTimeout: 15_000 },
});
