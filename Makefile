# A thin wrapper over build.sh, for those who type make.
.PHONY: all build test bench sanitize install deps clean
all: build
build test sanitize deps:
	./build.sh $@
bench:
	./build.sh bench $(BENCH_ARGS)
install:
	./build.sh install $(PREFIX)
clean:
	rm -rf build build-sanitize
