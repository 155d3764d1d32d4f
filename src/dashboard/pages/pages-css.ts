/** Where the pages' own styles are served from (style-src 'self': no inline style). */
export const PAGES_CSS_PATH = '/static/pages.css';

/**
 * The pages' styles, on top of the layout's: forms and cards that stack on a phone and sit in a
 * row on a wider screen, tables that scroll sideways rather than break the page, problems in red.
 */
export const PAGES_CSS = `
.card { border: 1px solid #d0d4da; border-radius: 8px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
.form { display: flex; flex-direction: column; gap: 0.5rem; max-width: 40rem; }
.form.inline { display: inline-flex; flex-direction: row; align-items: center; gap: 0.5rem; margin: 0.25rem 0; }
.form textarea, .form select, .form input[type='number'], .form input[type='password'] { font: inherit; padding: 0.4rem; }
.form textarea { width: 100%; box-sizing: border-box; }
.form label > input:not([type='checkbox']), .form label > select { display: block; width: 100%; box-sizing: border-box; margin-top: 0.25rem; }
.card.fixed .label { display: block; }
.check { display: flex; align-items: center; gap: 0.4rem; }
.buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; }
button { font: inherit; padding: 0.45rem 0.9rem; min-height: 2.5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
dd { margin: 0; overflow-wrap: anywhere; }
code, .preview { overflow-wrap: anywhere; }
.notice.refused { border-left: 4px solid #c62828; padding: 0.25rem 0.75rem; }
.preview { white-space: pre-wrap; background: #f4f5f7; border-radius: 6px; padding: 0.75rem; }
.note { color: #5c6370; font-size: 0.9em; margin: 0.25rem 0; }
.discord-preview { background: #313338; color: #dbdee1; border-radius: 8px; padding: 0.75rem 1rem; max-width: 40rem; }
.discord-preview .note { color: #b5bac1; }
.preview-label { font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.02em; color: #b5bac1; margin: 0.5rem 0 0.25rem; }
.message { display: flex; gap: 0.75rem; align-items: flex-start; }
.avatar { flex: none; width: 2.5rem; height: 2.5rem; border-radius: 50%; background: #5865f2; color: #fff; display: flex; align-items: center; justify-content: center; font-weight: 600; }
.message-body { min-width: 0; }
.author { font-weight: 600; color: #f2f3f5; }
.bot-tag { background: #5865f2; color: #fff; font-size: 0.7em; font-weight: 600; border-radius: 3px; padding: 0.05rem 0.3rem; vertical-align: middle; }
.message-text { margin: 0.15rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.problems { color: #b00020; margin: 0.25rem 0; padding-left: 0; list-style: none; }
.warning { color: #b00020; }
.review blockquote { margin: 0.5rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.stars { margin: 0; }
table { border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; }
th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid #e3e5e8; }
tr.bad td { color: #b00020; }
img.chart { max-width: 100%; height: auto; }
/* On a phone the picture keeps a size its labels can be read at, and scrolls sideways in its own box. */
@media (max-width: 700px) {
  .chart-box { overflow-x: auto; }
  .chart-box img.chart { max-width: none; width: 760px; }
}
@media (prefers-color-scheme: dark) {
  .card { border-color: #3a3f47; }
  .preview { background: #23262b; }
  .note { color: #a0a6b0; }
  .problems, .warning, tr.bad td { color: #ff6b7a; }
}
`;
