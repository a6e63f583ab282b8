/*
 * fuzz/replay_main.c: runs the fuzz harness without libFuzzer, so every compiler and every
 * sanitizer build can use it (CTest does):
 *
 *   mish_backward_replay FILE_OR_DIR...        each file once (a directory: its files)
 *   mish_backward_replay --random N [SEED]     N pseudo-random inputs of 0..160 bytes
 *   mish_backward_replay --mutate N SEED DIR   N inputs, each a file of DIR with 1..4 bytes
 *                                              changed (most stay near a valid case)
 *
 * A failed check aborts inside the harness; reaching the end means every input passed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern long mish_fuzz_phase1_ok, mish_fuzz_runs_checked, mish_fuzz_elements_checked;
extern long mish_fuzz_op_runs_checked[3];

static uint64_t rng_state = 0x5eed;

static uint8_t next_byte(void) {
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint8_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 56);
}

typedef struct seed_file {
    uint8_t data[256];
    size_t size;
} seed_file;
static seed_file *seeds;
static size_t seed_count;

static long inputs_run;
static int collecting; /* --mutate: read the files, run later */

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "mish_backward_replay: cannot open %s\n", path);
        return 1;
    }
    uint8_t data[4096];
    size_t size = fread(data, 1, sizeof data, f);
    fclose(f);
    if (collecting) {
        seed_file *grown = realloc(seeds, (seed_count + 1) * sizeof *seeds);
        if (grown == NULL) return 1;
        seeds = grown;
        seeds[seed_count].size = size < sizeof seeds->data ? size : sizeof seeds->data;
        memcpy(seeds[seed_count].data, data, seeds[seed_count].size);
        seed_count++;
        return 0;
    }
    LLVMFuzzerTestOneInput(data, size);
    inputs_run++;
    return 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "mish_backward_replay: no such file or directory: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *dir = opendir(path);
    if (dir == NULL) return 1;
    /* sorted, so a failure is reproducible by position */
    char **names = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            char **grown = realloc(names, capacity * sizeof *names);
            if (grown == NULL) break;
            names = grown;
        }
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[count] = malloc(length);
        snprintf(names[count], length, "%s/%s", path, entry->d_name);
        count++;
    }
    closedir(dir);
    qsort(names, count, sizeof *names, compare_names);
    int failures = 0;
    for (size_t i = 0; i < count; i++) {
        failures += run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return failures;
}

int main(int argc, char **argv) {
    int failures = 0;
    if (argc >= 3 && strcmp(argv[1], "--random") == 0) {
        long n = strtol(argv[2], NULL, 10);
        if (argc >= 4) rng_state = strtoull(argv[3], NULL, 0) | 1;
        uint8_t data[160];
        for (long i = 0; i < n; i++) {
            size_t size = next_byte() % (sizeof data + 1);
            for (size_t k = 0; k < size; k++) data[k] = next_byte();
            LLVMFuzzerTestOneInput(data, size);
            inputs_run++;
        }
    } else if (argc >= 5 && strcmp(argv[1], "--mutate") == 0) {
        long n = strtol(argv[2], NULL, 10);
        rng_state = strtoull(argv[3], NULL, 0) | 1;
        collecting = 1;
        failures += run_path(argv[4]);
        collecting = 0;
        for (long i = 0; i < n && seed_count > 0; i++) {
            seed_file input = seeds[((size_t)next_byte() << 8 | next_byte()) % seed_count];
            int edits = 1 + next_byte() % 4;
            for (int e = 0; e < edits && input.size > 0; e++) {
                size_t at = ((size_t)next_byte() << 8 | next_byte()) % input.size;
                /* half the edits small (a mode or a dim one step away), half anything */
                input.data[at] = next_byte() & 1 ? (uint8_t)(input.data[at] + 1 + next_byte() % 3) : next_byte();
            }
            /* a quarter of the time one byte more: a seed's operator byte when it had none
               (the backward's seeds then drive aclnnMish and aclnnInplaceMish too) */
            if (next_byte() % 4 == 0 && input.size < sizeof input.data) input.data[input.size++] = next_byte();
            LLVMFuzzerTestOneInput(input.data, input.size);
            inputs_run++;
        }
        free(seeds);
    } else {
        for (int i = 1; i < argc; i++) failures += run_path(argv[i]);
    }
    printf("inputs: %ld; phase 1 accepted %ld; %ld runs checked, %ld elements\n", inputs_run, mish_fuzz_phase1_ok,
           mish_fuzz_runs_checked, mish_fuzz_elements_checked);
    printf("runs checked by operator: aclnnMishBackward %ld, aclnnMish %ld, aclnnInplaceMish %ld\n",
           mish_fuzz_op_runs_checked[0], mish_fuzz_op_runs_checked[1], mish_fuzz_op_runs_checked[2]);
    printf("%ld passed, %d failed\n", inputs_run, failures);
    return failures != 0 || inputs_run == 0;
}
