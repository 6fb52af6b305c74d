import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSandboxConformance } from '@baton/testing/vitest';
import { localRaceOptions } from '../__tests__/race-setup.js';
import { localSandboxClient } from './local-sandbox-client.js';

describeSandboxConformance(
  'local (plain child processes)',
  async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-local-conformance-'));
    return {
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      cleanup: () => rm(rootDir, { recursive: true, force: true }),
    };
  },
  { race: localRaceOptions('none') },
);
