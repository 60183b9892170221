-- wrk's requests for GET /lists/{name}/tiles/{z}/{x}/{y}.mvt, uncached (no
-- If-None-Match: the server computes every tile), each a tile address drawn
-- at random from a seeded list that the tiles benchmark wrote
-- (TileBenchmark.swift):
--
--   wrk -s tiles.lua URL -- ADDRESSES /lists/NAME
--
-- ADDRESSES holds one `z/x/y` a line. Each thread draws with a seed of its
-- own, so two threads do not ask for the same tiles in the same order.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = args[2] .. "/tiles/" .. line .. ".mvt" end
  end
  math.randomseed(4300 + id)
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
