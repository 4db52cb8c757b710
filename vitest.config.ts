import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'scripts/legacy-sim', 'scripts/mail-sink', 'scripts/support', 'gateway', 'web'],
  },
});
