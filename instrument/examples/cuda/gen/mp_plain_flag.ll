; ModuleID = 'mp_plain_flag.cu'
source_filename = "mp_plain_flag.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write)
define dso_local ptx_kernel void @producer(ptr noundef writeonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !19
  %4 = icmp eq i32 %3, 0, !dbg !23
  br i1 %4, label %5, label %6, !dbg !23

5:                                                ; preds = %2
  store i32 42, ptr %0, align 4, !dbg !24, !tbaa !10
  store i32 1, ptr %1, align 4, !dbg !25, !tbaa !10
  br label %6, !dbg !26

6:                                                ; preds = %5, %2
  ret void, !dbg !27
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @consumer(ptr noundef readonly captures(none) %0, ptr noundef %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #1 !dbg !28 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !29
  %5 = icmp eq i32 %4, 0, !dbg !31
  br i1 %5, label %6, label %11, !dbg !31

6:                                                ; preds = %3, %6
  %7 = tail call i32 asm sideeffect "ld.acquire.sys.b32 $0,[$1];", "=r,l,~{memory}"(ptr %1) #3, !dbg !32, !srcloc !51
  %8 = icmp eq i32 %7, 1, !dbg !52
  br i1 %8, label %9, label %6, !dbg !53, !llvm.loop !54

9:                                                ; preds = %6
  %10 = load i32, ptr %0, align 4, !dbg !58, !tbaa !10
  store i32 %10, ptr %2, align 4, !dbg !59, !tbaa !10
  br label %11, !dbg !60

11:                                               ; preds = %9, %3
  ret void, !dbg !61
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "mp_plain_flag.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "producer", scope: !16, file: !16, line: 12, type: !17, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DIFile(filename: "./mp.cu", directory: ".")
!17 = !DISubroutineType(types: !18)
!18 = !{}
!19 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !22)
!20 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !21, file: !21, line: 53, type: !17, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!21 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!22 = distinct !DILocation(line: 13, column: 7, scope: !15)
!23 = !DILocation(line: 13, column: 19, scope: !15)
!24 = !DILocation(line: 14, column: 11, scope: !15)
!25 = !DILocation(line: 16, column: 11, scope: !15)
!26 = !DILocation(line: 20, column: 3, scope: !15)
!27 = !DILocation(line: 21, column: 1, scope: !15)
!28 = distinct !DISubprogram(name: "consumer", scope: !16, file: !16, line: 23, type: !17, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !30)
!30 = distinct !DILocation(line: 24, column: 7, scope: !28)
!31 = !DILocation(line: 24, column: 19, scope: !28)
!32 = !DILocation(line: 291, column: 3, scope: !33, inlinedAt: !35)
!33 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !34, file: !34, line: 289, type: !17, scopeLine: 291, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!34 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!35 = distinct !DILocation(line: 830, column: 5, scope: !36, inlinedAt: !37)
!36 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)2> >", scope: !34, file: !34, line: 829, type: !17, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!37 = distinct !DILocation(line: 103, column: 32, scope: !38, inlinedAt: !39)
!38 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !34, file: !34, line: 97, type: !17, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!39 = distinct !DILocation(line: 842, column: 3, scope: !40, inlinedAt: !41)
!40 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !34, file: !34, line: 834, type: !17, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!41 = distinct !DILocation(line: 305, column: 3, scope: !42, inlinedAt: !44)
!42 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !43, file: !43, line: 302, type: !17, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!43 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!44 = distinct !DILocation(line: 106, column: 13, scope: !45, inlinedAt: !47)
!45 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !46, file: !46, line: 101, type: !17, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!46 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!47 = distinct !DILocation(line: 80, column: 3, scope: !48, inlinedAt: !50)
!48 = distinct !DISubprogram(name: "load", scope: !49, file: !49, line: 80, type: !17, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!49 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!50 = distinct !DILocation(line: 25, column: 51, scope: !28)
!51 = !{i64 9156333}
!52 = !DILocation(line: 25, column: 84, scope: !28)
!53 = !DILocation(line: 25, column: 5, scope: !28)
!54 = distinct !{!54, !53, !55, !56, !57}
!55 = !DILocation(line: 26, column: 5, scope: !28)
!56 = !{!"llvm.loop.mustprogress"}
!57 = !{!"llvm.loop.unroll.disable"}
!58 = !DILocation(line: 27, column: 12, scope: !28)
!59 = !DILocation(line: 27, column: 10, scope: !28)
!60 = !DILocation(line: 28, column: 3, scope: !28)
!61 = !DILocation(line: 29, column: 1, scope: !28)
