import { describeSandboxConformance } from '@baton/testing';
import { localSandboxClient } from './local-sandbox-client.js';

describeSandboxConformance('local (plain child processes)', () => localSandboxClient({ isolation: 'none' }));
