// shoeAsset(): which files under shoebox/outsole/ have a URL, and which do not.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { shoeAsset, useDocsMount } from '../../runtime/shoebox/assets.ts';

it('maps docs/<file> and openapi.json under the docs mount, and refuses the rest', () => {
  assert.equal(shoeAsset('docs/swagger-ui.css'), '/svc/docs/swagger-ui.css');
  assert.equal(shoeAsset('./docs/logo.png'), '/svc/docs/logo.png');
  assert.equal(shoeAsset('openapi.json'), '/svc/docs/openapi.json');
  useDocsMount('/reference');
  assert.equal(shoeAsset('docs/swagger-ui.css'), '/reference/swagger-ui.css');
  for (const path of ['docs/../svc.json', 'docs/sub/file.js', 'docs/.env', 'logo.png', 'docs/a%2Fb', '', 'docs/openapi.json']) {
    assert.throws(() => shoeAsset(path), /only "openapi\.json" and files directly in shoebox\/outsole\/docs\//, path);
  }
});
