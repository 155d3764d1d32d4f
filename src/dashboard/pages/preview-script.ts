import { ANNOUNCE_FIELDS, PREVIEW_ID } from './announcements.js';

/** How long typing pauses before the preview is asked for: one request per pause, not per key. */
const DEBOUNCE_MS = 300;

/**
 * The announcements page's live preview, served as a file: as the member types, it posts the form
 * (its CSRF field included) to the preview address and shows the text that comes back. Without
 * JavaScript the Preview button does the same with a page load. The server answers text/plain (400
 * with /setup's refusal for a template it would refuse, which is worth showing as the preview).
 */
export const PREVIEW_SCRIPT = `'use strict';
(function () {
  var block = document.getElementById(${JSON.stringify(PREVIEW_ID)});
  if (!block) return;
  var form = document.querySelector('form.announce-form');
  if (!form) return;
  var url = block.getAttribute('data-preview-url');
  var timer = null;
  var latest = 0;
  function refresh() {
    var asked = ++latest;
    fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
      body: new URLSearchParams(new FormData(form)),
    })
      .then(function (response) { return response.ok || response.status === 400 ? response.text() : null; })
      .then(function (text) { if (text !== null && asked === latest) block.textContent = text; })
      .catch(function () { /* the Preview button still works */ });
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(refresh, ${DEBOUNCE_MS});
  }
  [${JSON.stringify(ANNOUNCE_FIELDS.template)}, ${JSON.stringify(ANNOUNCE_FIELDS.firstVote)}, ${JSON.stringify(ANNOUNCE_FIELDS.ping)}].forEach(function (name) {
    var field = form.elements.namedItem(name);
    if (field) field.addEventListener(field.type === 'checkbox' ? 'change' : 'input', later);
  });
})();
`;
