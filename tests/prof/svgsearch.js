// svgsearch.js -- run the search script of a prof -F svg flame graph
// under node, with no browser: a few stand-ins for the DOM calls the
// script makes, filled from the file's own boxes.
//
// usage: node svgsearch.js FILE.svg REGEX
//
// Prints "frames N" (the boxes turned magenta), then the line the
// script wrote ("Matched REGEX: P% of the graph (overhead apart), S s").

'use strict';
const fs = require('fs');

const svg = fs.readFileSync(process.argv[2], 'utf8');
const term = process.argv[3];

function unxml(s) {
	return s.replace(/&#10;/g, '\n').replace(/&lt;/g, '<')
	    .replace(/&gt;/g, '>').replace(/&quot;/g, '"')
	    .replace(/&amp;/g, '&');
}

// A rect: its attributes, as the script reads and writes them.
function rect(attrs) {
	const a = {};
	attrs.replace(/(\w+)="([^"]*)"/g, (m, k, v) => { a[k] = v; });
	return {
		getAttribute: (k) => a[k],
		setAttribute: (k, v) => { a[k] = String(v); },
	};
}

const frames = [];
const re = /<g class="f"><desc>([^<]*)<\/desc><rect ([^>]*)\/>/g;
let m;
while ((m = re.exec(svg)) !== null) {
	const d = { textContent: unxml(m[1]) }, r = rect(m[2]);
	frames.push({
		rect: r,
		querySelector: (q) => q === 'rect' ? r : q === 'desc' ? d : null,
	});
}
const byid = {};
for (const id of ['search', 'matched'])
	byid[id] = { textContent: '', addEventListener: () => {} };
const document = {
	querySelectorAll: (q) => q === 'g.f' ? frames : [],
	getElementById: (id) => byid[id] || null,
	addEventListener: () => {},
};
const window = {
	location: { search: '' },
	prompt: () => null,
};
const URLSearchParams = globalThis.URLSearchParams;

const scripts = svg.split('<script><![CDATA[').slice(1)
    .map((s) => s.split(']]></script>')[0]);
const search = scripts.find((s) => s.includes('flameSearch'));
if (search === undefined) {
	console.log('no search script');
	process.exit(1);
}
new Function('document', 'window', 'URLSearchParams', search)(document,
    window, URLSearchParams);
window.flameSearch(term);
console.log('frames ' + frames.filter((f) =>
    f.rect.getAttribute('fill') === 'rgb(230,0,230)').length);
console.log(byid.matched.textContent);
