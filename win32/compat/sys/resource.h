/* SPDX-License-Identifier: Apache-2.0 */
/* sys/resource.h -- declared for the Windows build: no limits to set.  */
#ifndef ASH_W32_SYS_RESOURCE_H
#define ASH_W32_SYS_RESOURCE_H
typedef unsigned long long rlim_t;
struct rlimit
{
  rlim_t rlim_cur;
  rlim_t rlim_max;
};
#define RLIM_INFINITY (~0ULL)
#define RLIMIT_NOFILE 7
#define RLIMIT_CORE 4
int getrlimit (int res, struct rlimit *rl);
int setrlimit (int res, const struct rlimit *rl);
#endif
