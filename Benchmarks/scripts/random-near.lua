-- wrk's requests for GET /stores/near?limit=10 from points uniform over the
-- sphere (latitude from the arcsine of a uniform sine), seeded: the server
-- benchmark (ServerBenchmark.swift) and postgres-serve.sh both load it.
math.randomseed(14)
request = function()
  local lat = math.deg(math.asin(2 * math.random() - 1))
  local lng = 360 * math.random() - 180
  return wrk.format("GET", string.format("/stores/near?lat=%.5f&lng=%.5f&limit=10", lat, lng))
end
