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
.check { display: flex; align-items: center; gap: 0.4rem; }
.buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; }
button { font: inherit; padding: 0.45rem 0.9rem; min-height: 2.5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
dd { margin: 0; overflow-wrap: anywhere; }
code, .preview { overflow-wrap: anywhere; }
.notice.refused { border-left: 4px solid #c62828; padding: 0.25rem 0.75rem; }
.preview { white-space: pre-wrap; background: #f4f5f7; border-radius: 6px; padding: 0.75rem; }
.note { color: #5c6370; font-size: 0.9em; margin: 0.25rem 0; }
.problems { color: #b00020; margin: 0.25rem 0; padding-left: 1.25rem; }
.warning { color: #b00020; }
.review blockquote { margin: 0.5rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.stars { margin: 0; }
table { border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; }
th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid #e3e5e8; }
tr.bad td { color: #b00020; }
img.chart { max-width: 100%; height: auto; }
@media (prefers-color-scheme: dark) {
  .card { border-color: #3a3f47; }
  .preview { background: #23262b; }
  .note { color: #a0a6b0; }
  .problems, .warning, tr.bad td { color: #ff6b7a; }
}
`;
