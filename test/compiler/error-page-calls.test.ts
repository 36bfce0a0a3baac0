// The build's check of what an error page calls agrees with Handlebars itself: a page it
// flags throws as it renders with the data every page gets, and a page it passes renders.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Handlebars from 'handlebars';
import { missingCalls } from '../../compiler/analyse/error-page-calls.ts';

const data = { status: 404, title: 'Not Found', detail: 'No route for /x.', requestId: 'id-1' };

const fine = [
  '{{status}} {{title}} {{{detail}}} {{requestId}} {{missing}} {{this}} {{.}} {{@root.status}}',
  '{{#if detail}}a{{else if status}}b{{else}}c{{/if}} {{#unless stack}}no stack{{/unless}}',
  '{{#each (lookup . "title")}}{{@index}}{{/each}} {{#with status as |code|}}{{code}}{{/with}}',
  '{{lookup . "title"}} {{#lookup . "title"}}x{{/lookup}} {{log status}} {{log}}',
  '{{#if status includeZero=true}}x{{/if}} {{hint kind=1}} {{#banner}}a section{{/banner}}',
  '{{#*inline "trail"}}<p>{{requestId}}</p>{{/inline}}{{> trail}}',
  '{{#*inline "Not Found"}}<p>gone</p>{{/inline}}{{> (lookup . "title")}} {{#if (flag)}}x{{/if}}',
  '{{#> layout}}the fallback renders{{/layout}}',
];

const broken = [
  '{{upper detail}}',
  '{{this.format status}}',
  '{{"text" status}}',
  '{{#wrap detail}}x{{/wrap}}',
  '{{#if (upper detail)}}x{{/if}}',
  '{{#if (flag status)}}x{{/if}}',
  '{{> footer}}',
  '{{> (lookup . "which")}}',
  '{{*trace}}',
  '{{#if}}x{{/if}}',
  '{{#if status title}}x{{/if}}',
  '{{if status}}',
  '{{each status}}',
  '{{#with}}x{{/with}}',
  '{{lookup .}}',
  '{{lookup . "a" "b"}}',
];

const renders = (page: string): boolean => {
  try {
    Handlebars.create().compile(page)(data);
    return true;
  } catch {
    return false;
  }
};

for (const page of fine) {
  test(`passes and renders: ${page}`, () => {
    assert.deepEqual(missingCalls(Handlebars.parse(page)), []);
    assert.ok(renders(page));
  });
}

for (const page of broken) {
  test(`flagged and throws: ${page}`, () => {
    assert.equal(missingCalls(Handlebars.parse(page)).length, 1);
    assert.ok(!renders(page));
  });
}

test('each call is reported where its name starts, 1-based', () => {
  const calls = missingCalls(Handlebars.parse('<h1>{{title}}</h1>\n  {{#if detail}}{{upper detail}}{{/if}}\n{{> footer}}'));
  assert.deepEqual(
    calls.map(({ line, col }) => [line, col]),
    [
      [2, 19],
      [3, 1],
    ],
  );
});
