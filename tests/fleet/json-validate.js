// json-validate.js SCHEMA.json DOC.json...: validate each DOC against the
// JSON Schema (draft-07) SCHEMA with ajv, formats (date-time, uri, email)
// checked in full. Prints each violation as "DOC: /path: message" and exits
// 1 when there is one, 2 when a file cannot be read, 77 without ajv (for the
// test suite: Debian's node-ajv lives in /usr/share/nodejs, set NODE_PATH).
'use strict';
const fs = require('fs');
let Ajv;
try {
	Ajv = require('ajv');
} catch (e) {
	console.error('json-validate: no ajv (apt-get install node-ajv; NODE_PATH=/usr/share/nodejs)');
	process.exit(77);
}
function load(path) {
	try {
		return JSON.parse(fs.readFileSync(path, 'utf8'));
	} catch (e) {
		console.error(`json-validate: ${path}: ${e.message}`);
		process.exit(2);
	}
}
const [schemaPath, ...docs] = process.argv.slice(2);
if (!schemaPath || docs.length === 0) {
	console.error('usage: json-validate.js SCHEMA.json DOC.json...');
	process.exit(2);
}
const ajv = new Ajv({ allErrors: true, format: 'full' });
const validate = ajv.compile(load(schemaPath));
let bad = 0;
for (const path of docs) {
	if (validate(load(path)))
		continue;
	bad++;
	for (const e of validate.errors)
		console.log(`${path}: ${e.dataPath || '/'}: ${e.message}` +
			    (e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''));
}
process.exit(bad ? 1 : 0);
