/* Unit tests for lib/sha256.c and lib/base64.c, what starve vm checks the
 * files a guest sends with: the FIPS 180-4 test vectors (and the block
 * boundaries around them), and base64 that is decoded only when well formed. */
#include "config.h"
#include "lib/base64.h"
#include "lib/sha256.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <string.h>

static const char *digest_of(const char *text, size_t len, size_t step)
{
	static char hex[SHA256_HEX_LEN];
	struct sha256 s;

	sha256_init(&s);
	for (size_t i = 0; i < len; i += step)
		sha256_update(&s, text + i, len - i < step ? len - i : step);
	sha256_final_hex(&s, hex);
	return hex;
}

START_TEST(sha256_matches_the_standard_vectors)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	ck_assert_str_eq(digest_of("", 0, 1),
			 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	ck_assert_str_eq(digest_of("abc", 3, 1),
			 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 56 bytes: the length no longer fits the first block's padding */
	ck_assert_str_eq(digest_of(two_blocks, strlen(two_blocks), 7),
			 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(sha256_of_a_million_a_fed_in_odd_pieces)
{
	static char a[1000000];

	memset(a, 'a', sizeof(a));
	ck_assert_str_eq(digest_of(a, sizeof(a), 4093),
			 "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(base64_decodes_whole_groups_and_padding)
{
	uint8_t out[16];

	ck_assert_int_eq(base64_decode("aGVsbG8=", 8, out), 5);
	ck_assert_int_eq(memcmp(out, "hello", 5), 0);
	ck_assert_int_eq(base64_decode("aGk=", 4, out), 2);
	ck_assert_int_eq(base64_decode("YQ==", 4, out), 1);
	ck_assert_int_eq(out[0], 'a');
	ck_assert_int_eq(base64_decode("", 0, out), 0);
	ck_assert_int_eq(base64_decode("+/8A", 4, out), 3);
	ck_assert_int_eq(out[0], 0xfb);
	ck_assert_int_eq(out[1], 0xff);
}
END_TEST

START_TEST(base64_refuses_what_is_not_base64)
{
	uint8_t out[16];

	ck_assert_int_eq(base64_decode("aGVsbG8", 7, out), -1);	/* not whole groups */
	ck_assert_int_eq(base64_decode("aGV*bG8=", 8, out), -1);	/* a foreign character */
	ck_assert_int_eq(base64_decode("YQ==YQ==", 8, out), -1);	/* data after padding */
	ck_assert_int_eq(base64_decode("Y===", 4, out), -1);	/* three pad characters */
	ck_assert_int_eq(base64_decode("YQ=A", 4, out), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("digest");
	TCase *tc = tcase_create("digest");

	tcase_add_test(tc, sha256_matches_the_standard_vectors);
	tcase_add_test(tc, sha256_of_a_million_a_fed_in_odd_pieces);
	tcase_add_test(tc, base64_decodes_whole_groups_and_padding);
	tcase_add_test(tc, base64_refuses_what_is_not_base64);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
