import { ANNOUNCE_FIELDS, PREVIEW_ID } from './announcements.js';

/** How long typing pauses before the preview is asked for: one request per pause, not per key. */
const DEBOUNCE_MS = 300;

/**
 * The announcements page's live preview, served as a file: as the member types, it posts the form
 * (its CSRF field included) to the preview address and draws the messages that come back as JSON,
 * as announcements.ts draws them (a 400 carries /setup's refusal, worth showing as the preview).
 * Without JavaScript the Preview button does the same with a page load. Text only goes in through
 * textContent: nothing the server sends is read as markup.
 */
export const PREVIEW_SCRIPT = `'use strict';
(function () {
  var block = document.getElementById(${JSON.stringify(PREVIEW_ID)});
  if (!block) return;
  var form = document.querySelector('form.announce-form');
  if (!form) return;
  var url = block.getAttribute('data-preview-url');
  var bot = block.getAttribute('data-bot') || '';
  var timer = null;
  var latest = 0;
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function draw(preview) {
    var parts = [];
    if (preview.refused) parts.push(el('p', 'note warning', preview.refused));
    if (preview.builtIn) parts.push(el('p', 'note', preview.builtIn));
    (preview.messages || []).forEach(function (message) {
      parts.push(el('p', 'preview-label', message.label));
      var row = el('div', 'message');
      var avatar = el('span', 'avatar', bot.slice(0, 1).toUpperCase());
      avatar.setAttribute('aria-hidden', 'true');
      var body = el('div', 'message-body');
      body.append(el('span', 'author', bot), ' ', el('span', 'bot-tag', 'BOT'), el('p', 'message-text', message.text));
      row.append(avatar, body);
      parts.push(row);
    });
    (preview.notes || []).forEach(function (note) { parts.push(el('p', 'note', note)); });
    block.replaceChildren.apply(block, parts);
  }
  function refresh() {
    var asked = ++latest;
    fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(new FormData(form)),
    })
      .then(function (response) { return response.ok || response.status === 400 ? response.json() : null; })
      .then(function (preview) { if (preview !== null && asked === latest) draw(preview); })
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
