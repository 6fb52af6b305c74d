/**
 * Computer use (OpenAI Responses `computer` tool): the `Computer` contract a driver implements
 * (a browser through playwright-core in `@baton/provider-openai/playwright`, a VM, a remote
 * desktop…) and `computerTool({ computer })`, which runs the model's `computer_call` actions on
 * it and answers with a `computer_call_output` screenshot. Pending safety checks pause the run
 * for approval (or go to `onSafetyCheck`); an approved call sends them back as
 * `acknowledged_safety_checks`. Source: https://platform.openai.com/docs/guides/tools-computer-use
 */
import {
  type FunctionTool,
  type HostedItem,
  type Item,
  type RunContext,
  tool,
  UserError,
} from '@baton/kernel';

/** The environment a computer tool declares (Responses `environment`). */
export type ComputerEnvironment = 'browser' | 'mac' | 'windows' | 'ubuntu' | 'linux';
/** A mouse button of a click action. */
export type MouseButton = 'left' | 'right' | 'wheel' | 'back' | 'forward';

/**
 * A computer the model operates. Coordinates are pixels of the screenshot, origin top left;
 * `keys` are the keys held during a mouse action, in the model's names (`'CTRL'`, `'SHIFT'`, …).
 * Every method may be async.
 */
export interface Computer {
  /** Default `'browser'`. */
  readonly environment?: ComputerEnvironment;
  /** Screen size in pixels, `[width, height]` (sent to preview computer-use models). */
  readonly dimensions?: readonly [number, number];
  /** A PNG of the screen, base64 (no `data:` prefix). */
  screenshot(): string | Promise<string>;
  click(x: number, y: number, button: MouseButton, keys?: string[]): void | Promise<void>;
  doubleClick(x: number, y: number, keys?: string[]): void | Promise<void>;
  scroll(
    x: number,
    y: number,
    scrollX: number,
    scrollY: number,
    keys?: string[],
  ): void | Promise<void>;
  type(text: string): void | Promise<void>;
  /** Presses the keys together (a chord such as `['CTRL', 'A']`), then releases them. */
  keypress(keys: string[]): void | Promise<void>;
  move(x: number, y: number, keys?: string[]): void | Promise<void>;
  /** Presses at the first point, moves through the others, releases at the last. */
  drag(path: { x: number; y: number }[], keys?: string[]): void | Promise<void>;
  /** Waits for the screen to settle (default about a second). */
  wait(ms?: number): void | Promise<void>;
}

/** A pending safety check of a `computer_call` (`id`, `code`, `message`). */
export interface ComputerSafetyCheck {
  id: string;
  code?: string | null;
  message?: string | null;
}

/** Options of {@link computerTool}. */
export interface ComputerToolOptions<TContext = any> {
  /** The computer, or a function giving the run's computer (called for every call; cache it). */
  computer: Computer | ((ctx: RunContext<TContext>) => Computer | Promise<Computer>);
  /** Tool name in approvals, hooks and traces. Default `'computer'`. */
  name?: string;
  /** Screen size for preview models when `computer` is a function. Default `[1024, 768]`. */
  dimensions?: readonly [number, number];
  /** Environment when `computer` is a function. Default `'browser'`. */
  environment?: ComputerEnvironment;
  /**
   * Decides pending safety checks without pausing: `true` acknowledges the check, `false` pauses
   * the run for a human (`state.approve` / `reject` of the call). Without it every call with
   * pending checks pauses.
   */
  onSafetyCheck?: (
    ctx: RunContext<TContext>,
    check: ComputerSafetyCheck,
    call: HostedItem,
  ) => boolean | Promise<boolean>;
  /** Ask for approval of calls without safety checks too: `true`, or a function of the call. */
  needsApproval?:
    | boolean
    | ((ctx: RunContext<TContext>, call: HostedItem) => boolean | Promise<boolean>);
}

/** What a computer call produced: the screenshot, and the first action that failed (if one did). */
export interface ComputerCallResult {
  imageUrl: string;
  error?: string;
}

/** A 1×1 white PNG, sent when a call was rejected or failed before any screenshot. */
export const BLANK_SCREENSHOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=';

const checksOf = (call: HostedItem): ComputerSafetyCheck[] =>
  Array.isArray(call.pending_safety_checks)
    ? (call.pending_safety_checks as ComputerSafetyCheck[])
    : [];

/** The actions of a call: the GA batch (`actions`) or the preview's single `action`. */
function actionsOf(call: HostedItem): Record<string, any>[] {
  if (Array.isArray(call.actions)) return call.actions as Record<string, any>[];
  return call.action && typeof call.action === 'object' ? [call.action as Record<string, any>] : [];
}

const num = (v: unknown, what: string): number => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new UserError(`computer_call: ${what} must be a number, got ${JSON.stringify(v)}.`);
};
const keysOf = (a: Record<string, any>): string[] | undefined =>
  Array.isArray(a.keys) && a.keys.length > 0 ? a.keys.map(String) : undefined;

/** Runs one action on `computer`. @throws UserError for an unknown or malformed action. */
export async function runComputerAction(computer: Computer, a: Record<string, any>): Promise<void> {
  switch (a.type) {
    case 'click':
      return computer.click(
        num(a.x, 'x'),
        num(a.y, 'y'),
        (a.button ?? 'left') as MouseButton,
        keysOf(a),
      );
    case 'double_click':
      return computer.doubleClick(num(a.x, 'x'), num(a.y, 'y'), keysOf(a));
    case 'scroll':
      return computer.scroll(
        num(a.x, 'x'),
        num(a.y, 'y'),
        num(a.scroll_x ?? 0, 'scroll_x'),
        num(a.scroll_y ?? 0, 'scroll_y'),
        keysOf(a),
      );
    case 'type':
      return computer.type(String(a.text ?? ''));
    case 'keypress':
      return computer.keypress(Array.isArray(a.keys) ? a.keys.map(String) : []);
    case 'move':
      return computer.move(num(a.x, 'x'), num(a.y, 'y'), keysOf(a));
    case 'drag': {
      const path = (Array.isArray(a.path) ? a.path : []).map((p: any) => ({
        x: num(p?.x, 'path.x'),
        y: num(p?.y, 'path.y'),
      }));
      return computer.drag(path, keysOf(a));
    }
    case 'wait':
      return computer.wait(typeof a.ms === 'number' ? a.ms : undefined);
    case 'screenshot':
      return;
    default:
      throw new UserError(`computer_call: unknown action type ${JSON.stringify(a.type)}.`);
  }
}

/**
 * The computer tool. On OpenAI Responses models it is the `computer` tool type (the preview
 * `computer_use_preview` type, with `display_width` / `display_height` / `environment`, for
 * `computer-use-preview*` models); other models have no computer tool, so an agent with it is
 * refused with `UserError` before its first call. Each `computer_call` runs its actions in
 * order, then takes a screenshot: an action that fails stops the batch, and the screenshot
 * still goes back (the error is on the run item's `output.error`). A rejected call, or one whose
 * screenshot failed, is answered with {@link BLANK_SCREENSHOT} and no acknowledged checks.
 */
export function computerTool<TContext = any>(
  options: ComputerToolOptions<TContext>,
): FunctionTool<TContext> {
  if (!options?.computer) throw new UserError('computerTool(): `computer` is required.');
  const fixed = typeof options.computer === 'function' ? undefined : options.computer;
  const [width, height] = fixed?.dimensions ?? options.dimensions ?? [1024, 768];
  const name = options.name ?? 'computer';
  const base = tool({
    name,
    description: 'Operate a computer through screenshots, mouse and keyboard.',
    execute: () => {
      throw new UserError(
        `Tool "${name}" runs only as a computer tool (an OpenAI Responses model).`,
      );
    },
  });
  const approval = options.needsApproval;
  return {
    ...base,
    native: {
      callType: 'computer_call',
      providerId: 'openai',
      portable: false,
      definition: {
        type: 'computer',
        display_width: width,
        display_height: height,
        environment: fixed?.environment ?? options.environment ?? 'browser',
      },
      needsApproval: async (ctx, call) => {
        for (const check of checksOf(call)) {
          if (!options.onSafetyCheck || !(await options.onSafetyCheck(ctx, check, call)))
            return true;
        }
        return typeof approval === 'function' ? approval(ctx, call) : approval === true;
      },
      execute: async (call, ctx): Promise<ComputerCallResult> => {
        const computer =
          typeof options.computer === 'function' ? await options.computer(ctx) : options.computer;
        let error: string | undefined;
        for (const action of actionsOf(call)) {
          try {
            await runComputerAction(computer, action);
          } catch (e) {
            error = `${action.type} failed: ${(e as Error)?.message ?? String(e)}`;
            break;
          }
        }
        const png = await computer.screenshot();
        const result: ComputerCallResult = { imageUrl: `data:image/png;base64,${png}` };
        if (error) result.error = error;
        return result;
      },
      toOutput: (call, value, ok): Item => {
        const checks = checksOf(call);
        const out: HostedItem = {
          type: 'computer_call_output',
          call_id: String(call.call_id),
          output: {
            type: 'computer_screenshot',
            image_url: ok ? (value as ComputerCallResult).imageUrl : BLANK_SCREENSHOT,
          },
        };
        if (ok && checks.length > 0)
          out.acknowledged_safety_checks = checks.map(({ id, code, message }) => ({
            id,
            code,
            message,
          }));
        return out;
      },
    },
  };
}
