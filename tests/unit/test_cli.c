/* core/pb_cli: the shared flag layer refuses tables that break the
 * convention, parses like getopt_long, and pb_out never harms an input. */
#include "pbtest.h"
#include "pb_cli.h"
#include "pb_time.h"
#include "pb_opt.h"
#include "pb_files.h"
#include "pb_error.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_SET = 1, O_SEED, O_OUT, O_QUIET, O_BAD };

/* -s is --set in every program: a table that makes it --seed is refused */
TEST(cli_registry_enforced)
{
    char *argv[] = {(char[]){"prog"}, NULL};
    pb_cli cli;
    pb_error err;
    static const pb_cli_opt seed_s[] = {{O_SEED, 's', "seed", "N", "seed"},
                                        {0, 0, NULL, NULL, NULL}};
    CHECK_INT(pb_cli_init(&cli, "prog", seed_s, 1, argv, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "-s means --set") != NULL);
    static const pb_cli_opt under[] = {{O_SET, 0, "max_window", "N", "x"},
                                       {0, 0, NULL, NULL, NULL}};
    CHECK_INT(pb_cli_init(&cli, "prog", under, 1, argv, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "'_'") != NULL);
    static const pb_cli_opt unreg[] = {{O_SET, 'Z', "zap", NULL, "x"},
                                       {0, 0, NULL, NULL, NULL}};
    CHECK_INT(pb_cli_init(&cli, "prog", unreg, 1, argv, &err), PB_EINVAL);
    static const pb_cli_opt twice[] = {{O_SET, 0, "set", "X", "x"},
                                       {O_SEED, 0, "set", "X", "y"},
                                       {0, 0, NULL, NULL, NULL}};
    CHECK_INT(pb_cli_init(&cli, "prog", twice, 1, argv, &err), PB_EINVAL);
}

static const pb_cli_opt good[] = {
    {O_SET, 's', "set", "NAME=VALUE", "set"},
    {O_SEED, 0, "seed", "N", "seed"},
    {O_OUT, 'o', "output", "FILE", "out"},
    {O_QUIET, 'q', "quiet", NULL, "quiet"},
    {0, 0, NULL, NULL, NULL}};

TEST(cli_parses)
{
    char *argv[] = {(char[]){"prog"}, (char[]){"-s"}, (char[]){"a=1"},
                    (char[]){"--seed"}, (char[]){"7"}, (char[]){"-qo"},
                    (char[]){"f.csv"}, (char[]){"--set=b=2"},
                    (char[]){"in.csv"}, NULL};
    pb_cli cli;
    pb_error err;
    CHECK_INT(pb_cli_init(&cli, "prog", good, 9, argv, &err), PB_OK);
    const char *arg;
    int want[] = {O_SET, O_SEED, O_QUIET, O_OUT, O_SET};
    const char *wantarg[] = {(char[]){"a=1"}, (char[]){"7"}, NULL, (char[]){"f.csv"}, (char[]){"b=2"}};
    for (int i = 0; i < 5; i++) {
        int c = pb_cli_next(&cli, &arg, &err);
        CHECK_INT(c, want[i]);
        if (wantarg[i])
            CHECK_STR(arg, wantarg[i]);
    }
    CHECK_INT(pb_cli_next(&cli, &arg, &err), PB_CLI_END);
    CHECK_STR(argv[pb_cli_optind(&cli)], "in.csv");
    pb_cli_free(&cli);

    char *bad[] = {(char[]){"prog"}, (char[]){"--nosuch"}, NULL};
    CHECK_INT(pb_cli_init(&cli, "prog", good, 2, bad, &err), PB_OK);
    CHECK_INT(pb_cli_next(&cli, &arg, &err), PB_CLI_BAD);
    CHECK(strstr(err.msg, "--nosuch") != NULL);
    pb_cli_free(&cli);
    char *noval[] = {(char[]){"prog"}, (char[]){"-o"}, NULL};
    CHECK_INT(pb_cli_init(&cli, "prog", good, 2, noval, &err), PB_OK);
    CHECK_INT(pb_cli_next(&cli, &arg, &err), PB_CLI_BAD);
    CHECK(strstr(err.msg, "needs a value") != NULL);
    pb_cli_free(&cli);
    char *help[] = {(char[]){"prog"}, (char[]){"-h"}, NULL};
    CHECK_INT(pb_cli_init(&cli, "prog", good, 2, help, &err), PB_OK);
    CHECK_INT(pb_cli_next(&cli, &arg, &err), PB_CLI_HELP);
    pb_cli_free(&cli);
}

static int usage_calls;
static void count_usage(FILE *fp, const pb_cli *cli)
{
    (void)fp;
    (void)cli;
    usage_calls++;
}

/* pb_cli_answer: -h calls the program's usage, --version and
 * --list-options are answered, every other value is left to the program */
TEST(cli_answer)
{
    pb_cli cli;
    pb_error err;
    char *argv[] = {(char[]){"prog"}, NULL};
    CHECK_INT(pb_cli_init(&cli, "prog", good, 1, argv, &err), PB_OK);
    usage_calls = 0;
    CHECK_INT(pb_cli_answer(PB_CLI_HELP, &cli, NULL, count_usage), 1);
    CHECK_INT(usage_calls, 1);
    FILE *saved = stdout;
    char buf[4096] = {0};
    FILE *mem = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(mem != NULL);
    stdout = mem;
    int v = pb_cli_answer(PB_CLI_VERSION, &cli, NULL, count_usage);
    int l = pb_cli_answer(PB_CLI_LIST, &cli, NULL, count_usage);
    int other = pb_cli_answer(good[0].id, &cli, NULL, count_usage);
    int end = pb_cli_answer(PB_CLI_END, &cli, NULL, count_usage);
    int bad = pb_cli_answer(PB_CLI_BAD, &cli, NULL, count_usage);
    fclose(mem);
    stdout = saved;
    CHECK_INT(v, 1);
    CHECK_INT(l, 1);
    CHECK_INT(other, 0);
    CHECK_INT(end, 0);
    CHECK_INT(bad, 0);
    CHECK_INT(usage_calls, 1);
    CHECK(strstr(buf, "prog (pathbench)") != NULL);
    CHECK(strstr(buf, "flag ") != NULL);
    pb_cli_free(&cli);
}

static int file_is(const char *path, const char *text)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    char b[64] = {0};
    size_t n = fread(b, 1, sizeof b - 1, fp);
    fclose(fp);
    return n == strlen(text) && !memcmp(b, text, n);
}

TEST(out_never_harms_an_input)
{
    char dir[] = "/tmp/test_cliXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char in[64], out[64], link_[64];
    snprintf(in, sizeof in, "%s/in.csv", dir);
    snprintf(out, sizeof out, "%s/out.csv", dir);
    snprintf(link_, sizeof link_, "%s/same.csv", dir);
    FILE *fp = fopen(in, "w");
    fputs("input", fp);
    fclose(fp);
    CHECK_INT(link(in, link_), 0);
    pb_out *o = NULL;
    pb_error err;
    const char *inputs[] = {in};
    /* the input itself, and another name of it, are refused */
    CHECK_INT(pb_out_open(&o, in, inputs, 1, &err), PB_EINVAL);
    CHECK_INT(pb_out_open(&o, link_, inputs, 1, &err), PB_EINVAL);
    CHECK(file_is(in, "input"));
    /* a failed run leaves the old output as it was, and no temporary file */
    fp = fopen(out, "w");
    fputs("old", fp);
    fclose(fp);
    CHECK_INT(pb_out_open(&o, out, inputs, 1, &err), PB_OK);
    fputs("half of the new", pb_out_fp(o));
    CHECK(file_is(out, "old"));
    pb_out_abort(o);
    CHECK(file_is(out, "old"));
    /* a good run replaces it */
    CHECK_INT(pb_out_open(&o, out, inputs, 1, &err), PB_OK);
    fputs("new", pb_out_fp(o));
    CHECK_INT(pb_out_commit(o, &err), PB_OK);
    CHECK(file_is(out, "new"));
    /* a folder that does not exist fails at once */
    char nodir[80];
    snprintf(nodir, sizeof nodir, "%s/nodir/x.csv", dir);
    CHECK_INT(pb_out_open(&o, nodir, inputs, 1, &err), PB_EIO);
    CHECK(strstr(err.file, "nodir") != NULL);
    /* a full device: the error comes at commit */
    if (access("/dev/full", W_OK) == 0) {
        CHECK_INT(pb_out_open(&o, "/dev/full", inputs, 1, &err), PB_OK);
        for (int i = 0; i < 10000; i++)
            fputs("0123456789", pb_out_fp(o));
        CHECK_INT(pb_out_commit(o, &err), PB_EIO);
    }
    unlink(in);
    unlink(link_);
    unlink(out);
    CHECK_INT(rmdir(dir), 0); /* fails if a temporary file was left */
}

TEST(kv_split)
{
    char name[8];
    const char *v = pb_cli_kv_split("mu=10ms", name, sizeof name);
    CHECK(v != NULL && strcmp(v, "10ms") == 0);
    CHECK(strcmp(name, "mu") == 0);
    v = pb_cli_kv_split("a=b=c", name, sizeof name); /* the first '=' splits */
    CHECK(v != NULL && strcmp(v, "b=c") == 0 && strcmp(name, "a") == 0);
    v = pb_cli_kv_split("averylongname=1", name, sizeof name); /* cut, not overrun */
    CHECK(v != NULL && strcmp(v, "1") == 0 && strcmp(name, "averylo") == 0);
    CHECK(pb_cli_kv_split("42", name, sizeof name) == NULL && name[0] == '\0');
}

/* pb_cli_set_param / pb_cli_set_kv: what skewer and sniffer share for
 * -s NAME=VALUE, the old "-s N" = --seed N, and dedicated flags; a bad
 * name or value leaves the field as it was and says which flag, as typed. */
typedef struct kvp {
    int seed, queue;
    pb_ns window;
} kvp;

static const pb_option kv_opts[] = {
    {"seed", PB_OPT_INT, offsetof(kvp, seed), "1", 0, 100, "seed"},
    {"queue", PB_OPT_INT, offsetof(kvp, queue), "10", 1, 1000, "queue"},
    {"window", PB_OPT_DURATION, offsetof(kvp, window), "0", 0, 10, "window"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

/* stderr of f(p) as text (at most n - 1 bytes) */
static void stderr_of(int (*f)(kvp *), kvp *p, int *rc, char *buf, size_t n)
{
    char path[] = "/tmp/pbtest_cli_XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    *rc = f(p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t got = pread(fd, buf, n - 1, 0);
    buf[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
}

static int kv_queue0(kvp *p) { return pb_cli_set_kv("prog", kv_opts, p, "queue=0"); }
static int kv_unknown(kvp *p) { return pb_cli_set_kv("prog", kv_opts, p, "nope=1"); }
static int flag_badseed(kvp *p)
{
    return pb_cli_set_param("prog", kv_opts, p, "seed", "x7", "--seed");
}

TEST(set_param_and_kv)
{
    kvp p;
    pb_error err;
    CHECK_INT(pb_opt_defaults(kv_opts, &p, &err), PB_OK);
    CHECK_INT(pb_cli_set_kv("prog", kv_opts, &p, "queue=5"), 1);
    CHECK_INT(p.queue, 5);
    CHECK_INT(pb_cli_set_kv("prog", kv_opts, &p, "7"), 1); /* old -s SEED */
    CHECK_INT(p.seed, 7);
    CHECK_INT(pb_cli_set_param("prog", kv_opts, &p, "window", "30ms", "--window"), 1);
    CHECK(p.window == 30000000);
    char msg[512];
    int rc;
    stderr_of(kv_queue0, &p, &rc, msg, sizeof msg);
    CHECK_INT(rc, 0);
    CHECK_INT(p.queue, 5); /* unchanged */
    CHECK(strncmp(msg, "prog: -s queue=0: ", 18) == 0);
    CHECK(strstr(msg, "(try prog --help)\n") != NULL);
    stderr_of(kv_unknown, &p, &rc, msg, sizeof msg);
    CHECK_INT(rc, 0);
    CHECK(strstr(msg, "prog: -s nope=1: ") == msg && strstr(msg, "\"nope\"") != NULL);
    stderr_of(flag_badseed, &p, &rc, msg, sizeof msg);
    CHECK_INT(rc, 0);
    CHECK_INT(p.seed, 7);
    CHECK(strncmp(msg, "prog: --seed x7: ", 17) == 0);
}

/* pb_number_parse: one rule for every number read outside the option
 * table (hostile round 14) */
TEST(number_parse)
{
    double v = -1;
    CHECK_INT(pb_number_parse("12", 2, &v), PB_OK);
    CHECK(v == 12);
    CHECK_INT(pb_number_parse("-0.5e1", 6, &v), PB_OK);
    CHECK(v == -5);
    CHECK_INT(pb_number_parse("2,3", 1, &v), PB_OK); /* a prefix of a list */
    CHECK(v == 2);
    CHECK_INT(pb_number_parse("1e-400", 6, &v), PB_OK); /* underflow: 0 */
    CHECK(v == 0 && !signbit(v));
    CHECK_INT(pb_number_parse("-0", 2, &v), PB_OK);
    CHECK(v == 0 && !signbit(v));
    CHECK_INT(pb_number_parse("1e400", 5, &v), PB_ERANGE);
    const char *bad[] = {"", "0x10", " 1", "1 ", "inf", "nan", "1e", ".", "+", "1,"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_INT(pb_number_parse(bad[i], strlen(bad[i]), &v), PB_EINVAL);
    /* longer than any buffer: still read */
    char big[400];
    memset(big, '0', sizeof big - 2);
    big[sizeof big - 2] = '7';
    big[sizeof big - 1] = 0;
    CHECK_INT(pb_number_parse(big, strlen(big), &v), PB_OK);
    CHECK(v == 7);
}

/* pb_files_getline drops a UTF-8 byte-order mark before a line */
TEST(getline_bom)
{
    char text[] = "\xEF\xBB\xBF" "a b\nc\n" "\xEF\xBB\xBF" "\n";
    FILE *fp = fmemopen(text, sizeof text - 1, "r");
    CHECK(fp != NULL);
    if (!fp)
        return;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    CHECK_INT(pb_files_getline(fp, &buf, &cap, 1 << 20, &len), 1);
    CHECK(len == 4 && !strcmp(buf, "a b\n"));
    CHECK_INT(pb_files_getline(fp, &buf, &cap, 1 << 20, &len), 1);
    CHECK(len == 2 && !strcmp(buf, "c\n"));
    CHECK_INT(pb_files_getline(fp, &buf, &cap, 1 << 20, &len), 1);
    CHECK(len == 1 && !strcmp(buf, "\n"));
    CHECK_INT(pb_files_getline(fp, &buf, &cap, 1 << 20, &len), 0);
    free(buf);
    fclose(fp);
}

int main(void)
{
    RUN(cli_registry_enforced);
    RUN(cli_parses);
    RUN(cli_answer);
    RUN(out_never_harms_an_input);
    RUN(kv_split);
    RUN(set_param_and_kv);
    RUN(number_parse);
    RUN(getline_bom);
    return pbtest_exit();
}
