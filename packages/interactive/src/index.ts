export {
  type InteractiveOptions,
  type InteractiveSummary,
  runInteractive,
} from './run-interactive.js';
