import { describe, expect, it } from '@jest/globals';
import { escapeHtml, html } from '../../../src/dashboard/html.js';

describe('html', () => {
  it("escapes every value: a review's <script> stays text", () => {
    const review = '<script>alert("x")</script> & \'quoted\'';
    expect(html`<p>${review}</p>`.text).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>',
    );
  });

  it('keeps markup that is already Html, joins lists and leaves out null, undefined and false', () => {
    const items = ['a<b', 'c'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });

  it('escapes an attribute value so it cannot close its quotes', () => {
    expect(html`<input value="${'" onfocus="x'}">`.text).toBe('<input value="&quot; onfocus=&quot;x">');
    expect(escapeHtml('plain')).toBe('plain');
  });
});
