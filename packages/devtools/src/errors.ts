import { BatonError } from '@baton/kernel';

/**
 * A devtools call could not be carried out: the port is taken, a trace file is missing or
 * unreadable, the page is not built, or a processor was pointed at a non-local address. The
 * message says what to do.
 */
export class DevtoolsError extends BatonError {}
