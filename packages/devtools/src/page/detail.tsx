/** The span detail pane: fields by kind; model input/output as a chat transcript; redacted values marked. */
import { type ChatEntry, type DetailValue, spanDetail } from '../view/span-detail.js';
import { formatDuration, type SpanRow } from '../view/span-tree.js';

function Chat({ entries }: { entries: ChatEntry[] }) {
  if (entries.length === 0) return <div class="muted">no items</div>;
  return (
    <div class="chat" data-testid="chat">
      {entries.map((e, i) => {
        switch (e.kind) {
          case 'message':
            return (
              <div
                key={i}
                class={`msg role-${e.role}`}
                data-testid="chat-message"
                data-role={e.role}
              >
                <div class="msg-role">{e.role}</div>
                <div class="msg-text">{e.text}</div>
                {e.attachments.map((a) => (
                  <div key={a} class="attachment">
                    attachment: {a}
                  </div>
                ))}
              </div>
            );
          case 'tool_call':
            return (
              <div key={i} class="msg tool-call" data-testid="chat-tool-call">
                <div class="msg-role">
                  call <code>{e.name}</code> <span class="muted mono">{e.callId}</span>
                </div>
                <pre>{pretty(e.arguments)}</pre>
              </div>
            );
          case 'tool_output':
            return (
              <div key={i} class="msg tool-output" data-testid="chat-tool-output">
                <div class="msg-role">
                  output <span class="muted mono">{e.callId}</span>
                </div>
                <pre>{pretty(e.output)}</pre>
              </div>
            );
          case 'reasoning':
            return (
              <div key={i} class={`msg reasoning${e.redacted ? ' redacted-text' : ''}`}>
                <div class="msg-role">reasoning{e.redacted ? ' · redacted' : ''}</div>
                <div class="msg-text">{e.text || '(empty)'}</div>
              </div>
            );
          default:
            return (
              <div key={i} class="msg other">
                <div class="msg-role">{e.type}</div>
                <pre>{e.json}</pre>
              </div>
            );
        }
      })}
    </div>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Value({ value }: { value: DetailValue }) {
  switch (value.type) {
    case 'text':
      return <div class="value-text">{value.text}</div>;
    case 'json':
      return <pre class="value-json">{JSON.stringify(value.value, null, 2)}</pre>;
    case 'chat':
      return <Chat entries={value.entries} />;
    case 'redacted':
      return (
        <div class="redacted" data-testid="redacted">
          <span class="badge redacted-badge">redacted</span>{' '}
          <span class="muted">{value.reason}</span>
        </div>
      );
  }
}

export function SpanDetailPane({ row, onClose }: { row: SpanRow; onClose(): void }) {
  const fields = spanDetail(row.span);
  return (
    <div class="detail" data-testid="span-detail" data-span-id={row.id} data-kind={row.kind}>
      <div class="detail-head">
        <span class={`kind kind-${row.kind}`}>{row.kind}</span>
        <strong data-testid="detail-title">{row.label}</strong>
        <button type="button" class="close" onClick={onClose} title="close">
          ×
        </button>
      </div>
      <div class="detail-meta">
        <span class={`badge st-${row.status}`}>{row.status}</span>
        <span>
          {formatDuration(row.durationMs)}
          {row.status === 'running' ? ' so far' : ''}
        </span>
        <span class="muted">
          started {new Date(row.span.startedAt).toISOString().slice(11, 23)}
        </span>
        <span class="muted mono">{row.id}</span>
        {row.orphan && <span class="badge status-error">parent missing</span>}
      </div>
      <dl class="fields">
        {fields.map((f) => (
          <div key={f.label} class="field" data-testid={`field-${f.label}`}>
            <dt>{f.label}</dt>
            <dd>
              <Value value={f.value} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
