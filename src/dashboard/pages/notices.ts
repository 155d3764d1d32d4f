import { html, type Html } from '../html.js';

/** After a change was saved (the page it redirected to asks with `?saved=1`). */
export function savedNotice(text: string): Html {
  return html`<p class="notice ok" role="status">${text}</p>`;
}

/** Why a change was refused, in /setup's words: what went wrong and what to do; nothing was stored. */
export function refusedNotice(title: string, text: string): Html {
  return html`<div class="notice refused" role="alert">
    <p><strong>${title}</strong></p>
    <p>${text}</p>
  </div>`;
}
