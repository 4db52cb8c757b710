import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'legacy-sim', include: ['src/**/*.test.ts'], testTimeout: 15_000 },
});
