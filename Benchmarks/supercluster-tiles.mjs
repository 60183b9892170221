// Writes the tile fixture that Tests/ClusteringTests/ClusterTileTests.swift
// compares our `ClusterIndex.tile` with: mapbox/supercluster 8.0.1's
// getTile(z, x, y) over a seeded list of points, with MVT's extent 4096 and
// the radius matched (320 = 40 × 4096 / 512). Neither library is part of
// this repository; point the script at checkouts of them:
//
//   node Benchmarks/supercluster-tiles.mjs --supercluster DIR --kdbush DIR \
//        > Tests/Fixtures/Supercluster/tiles.json
//
// The fixture holds the points (latitude, longitude, in list order) and,
// for each tile, its features as [id, x, y, point_count] (point_count 1 for
// a point, whose id is its list position).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

// supercluster imports the bare name 'kdbush' (as supercluster-peer.mjs does).
const modules = fs.mkdtempSync(path.join(os.tmpdir(), 'supercluster-tiles-'));
function install(name, from) {
    const dir = path.join(modules, 'node_modules', name);
    fs.mkdirSync(dir, {recursive: true});
    fs.copyFileSync(path.join(from, 'index.js'), path.join(dir, 'index.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name, type: 'module', main: 'index.js'}));
}
install('supercluster', args.supercluster);
install('kdbush', args.kdbush);
let Supercluster;
try {
    Supercluster = (await import(pathToFileURL(path.join(modules, 'node_modules', 'supercluster', 'index.js')))).default;
} finally {
    fs.rmSync(modules, {recursive: true, force: true});
}

// A seeded generator (mulberry32), so that the fixture is the same each run.
let seed = 42;
function random() {
    seed |= 0; seed = seed + 0x6D2B79F5 | 0;
    let t = Math.imul(seed ^ seed >>> 15, 1 | seed);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
}
const round6 = (v) => Math.round(v * 1e6) / 1e6;
const points = [];
// Crowds around Seoul, New York and Fiji (across the antimeridian), and
// places all over the globe.
for (const [lat, lng, spread, count] of [[37.55, 126.98, 0.3, 900], [40.71, -74.0, 0.5, 600], [-17.8, 179.9, 0.6, 500], [0, 0, 90, 1000]]) {
    for (let i = 0; i < count; i++) {
        const la = Math.max(-85, Math.min(85, lat + (random() * 2 - 1) * spread));
        let ln = lng + (random() * 2 - 1) * spread * 2;
        if (ln > 180) ln -= 360;
        if (ln < -180) ln += 360;
        points.push([round6(la), round6(ln)]);
    }
}
const index = new Supercluster({extent: 4096, radius: 320, maxZoom: 16}).load(
    points.map(([lat, lng], i) => ({type: 'Feature', id: i, properties: {}, geometry: {type: 'Point', coordinates: [lng, lat]}})));

const lngX = (lng) => lng / 360 + 0.5;
const latY = (lat) => {
    const sin = Math.sin(lat * Math.PI / 180);
    const y = 0.5 - 0.25 * Math.log((1 + sin) / (1 - sin)) / Math.PI;
    return y < 0 ? 0 : y > 1 ? 1 : y;
};
const tiles = [];
for (let z = 0; z <= 17; z++) {
    const z2 = 2 ** z;
    const wanted = new Set();
    // The tiles of every 97th point, and their neighbours; the edge columns.
    for (let i = 0; i < points.length; i += 97) {
        const tx = Math.floor(lngX(points[i][1]) * z2), ty = Math.floor(latY(points[i][0]) * z2);
        for (const [dx, dy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
            const x = Math.min(z2 - 1, Math.max(0, tx + dx)), y = Math.min(z2 - 1, Math.max(0, ty + dy));
            wanted.add(`${x}/${y}`);
        }
    }
    for (const [x, y] of [...wanted].map((k) => k.split('/').map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
        const tile = index.getTile(z, x, y);
        const features = (tile ? tile.features : []).map((f) => [f.id, f.geometry[0][0], f.geometry[0][1], f.tags.point_count ?? 1]);
        tiles.push({z, x, y, features});
    }
}
process.stdout.write(JSON.stringify({supercluster: '8.0.1', options: {extent: 4096, radius: 320, maxZoom: 16}, points, tiles}) + '\n');
