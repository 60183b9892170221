import NIOCore
import NIOPosix
import Testing

@testable import CarouselServer

/// The event loops as task executors, which connections and their live
/// sessions run on (docs/concurrency.md).
@Suite struct EventLoopTaskExecutorTests {
    @Test func eachLoopHasOneExecutor() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let loops = Array(group.makeIterator())
        #expect(loops.count == 2)
        // The runtime tells executors apart by identity: a connection's and
        // its session's must be the same object to run on without a hop.
        #expect(EventLoopTaskExecutor.of(loops[0]) === EventLoopTaskExecutor.of(loops[0]))
        #expect(EventLoopTaskExecutor.of(loops[0]) !== EventLoopTaskExecutor.of(loops[1]))
    }

    @Test func aTaskPreferringItRunsOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let executor = EventLoopTaskExecutor.of(loop)
        let onLoop = await Task(executorPreference: executor) { loop.inEventLoop }.value
        #expect(onLoop)
        let inGroup = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { loop.inEventLoop }
                return await group.next() ?? false
            }
        }
        #expect(inGroup, "child tasks keep the preference")
        try await group.shutdownGracefully()
    }
}
