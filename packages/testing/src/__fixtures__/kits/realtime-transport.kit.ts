/**
 * `describeRealtimeTransportConformance` on the toy realtime vendor: correct (every case must
 * pass) and with each planted defect (the case that targets it must fail). Run by
 * `contract-kits.test.ts` in a child vitest.
 */
import { describeRealtimeTransportConformance } from '@baton/testing/vitest';
import { type ToyRealtimeBug, ToyRealtimeServer } from '../../__tests__/toy-realtime.js';

export const REALTIME_BUGS: ToyRealtimeBug[] = [
  'send_unchecked',
  'reorders_sends',
  'config_not_applied',
  'no_raw',
  'lost_on_close',
  'close_twice_throws',
  'leaks_on_close',
  'unreadable_untyped',
  'server_error_untyped',
  'first_delta_arguments',
  'ignores_abort',
  'shared_listeners',
  'keeps_unsubscribed',
  'no_reconnect',
  'refusal_without_status',
  'mangles_audio',
  'stale_status',
  'non_plain_items',
  'second_connection',
  'drops_cancel',
  'close_hangs_connect',
];

const options = { eventTimeoutMs: 2_500 };
describeRealtimeTransportConformance('toy', async () => new ToyRealtimeServer(), options);
for (const bug of REALTIME_BUGS)
  describeRealtimeTransportConformance(
    `toy with ${bug}`,
    async () => new ToyRealtimeServer(bug),
    options,
  );
