export {
  type ContainerSpecInput,
  containerSpec,
  type DockerDefaultLimits,
  SANDBOX_LABEL,
  workspaceVolumeSpec,
} from './docker-container-spec.js';
export { isEngineUnreachable, toSandboxError } from './docker-errors.js';
export { FILE_OPS_SCRIPT } from './docker-file-ops.js';
export {
  type DockerSandboxClient,
  type DockerSandboxClientOptions,
  dockerSandboxClient,
} from './docker-sandbox-client.js';
export { DockerSandboxSession } from './docker-sandbox-session.js';
export { type LimitCounters, parseLimitCounters } from './limit-counters.js';
