// SPDX-License-Identifier: MIT
// Reads FILE to its end with read(2) calls of exactly BUFFER bytes: the honest reader.
//   cc -O2 -o buffered_reader buffered_reader.c
//   archivescope-cli bench FILE --command 'mine=./buffered_reader {file} {buffer}'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE BUFFER\n", argv[0]);
        return 2;
    }
    const size_t size = strtoull(argv[2], NULL, 10);
    const int fd = open(argv[1], O_RDONLY);
    char *buffer = malloc(size ? size : 1);
    if (fd < 0 || !buffer) {
        perror(argv[1]);
        return 1;
    }
    unsigned long long total = 0;
    ssize_t n;
    while ((n = read(fd, buffer, size)) > 0)
        total += (unsigned long long)n;
    if (n < 0) {
        perror("read");
        return 1;
    }
    printf("%llu\n", total);
    return 0;
}
