; ModuleID = 'mp_fence_agent.cu'
source_filename = "mp_fence_agent.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @producer(ptr noundef writeonly captures(none) %0, ptr noundef %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !19
  %4 = icmp eq i32 %3, 0, !dbg !23
  br i1 %4, label %5, label %6, !dbg !23

5:                                                ; preds = %2
  store i32 42, ptr %0, align 4, !dbg !24, !tbaa !10
  tail call void @llvm.nvvm.membar.gl(), !dbg !25
  tail call void asm sideeffect "st.relaxed.sys.b32 [$0],$1;", "l,r,~{memory}"(ptr %1, i32 1) #3, !dbg !29, !srcloc !48
  br label %6, !dbg !49

6:                                                ; preds = %5, %2
  ret void, !dbg !50
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @consumer(ptr noundef readonly captures(none) %0, ptr noundef %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !51 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !52
  %5 = icmp eq i32 %4, 0, !dbg !54
  br i1 %5, label %6, label %11, !dbg !54

6:                                                ; preds = %3, %6
  %7 = tail call i32 asm sideeffect "ld.relaxed.sys.b32 $0,[$1];", "=r,l,~{memory}"(ptr %1) #3, !dbg !55, !srcloc !70
  %8 = icmp eq i32 %7, 1, !dbg !71
  br i1 %8, label %9, label %6, !dbg !72, !llvm.loop !73

9:                                                ; preds = %6
  tail call void @llvm.nvvm.membar.gl(), !dbg !77
  %10 = load i32, ptr %0, align 4, !dbg !79, !tbaa !10
  store i32 %10, ptr %2, align 4, !dbg !80, !tbaa !10
  br label %11, !dbg !81

11:                                               ; preds = %9, %3
  ret void, !dbg !82
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nounwind
declare void @llvm.nvvm.membar.gl() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nounwind }
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
!7 = !DIFile(filename: "mp_fence_agent.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "producer", scope: !16, file: !16, line: 11, type: !17, scopeLine: 11, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DIFile(filename: "./mp_fence.cu", directory: ".")
!17 = !DISubroutineType(types: !18)
!18 = !{}
!19 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !22)
!20 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !21, file: !21, line: 53, type: !17, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!21 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!22 = distinct !DILocation(line: 12, column: 7, scope: !15)
!23 = !DILocation(line: 12, column: 19, scope: !15)
!24 = !DILocation(line: 13, column: 11, scope: !15)
!25 = !DILocation(line: 528, column: 39, scope: !26, inlinedAt: !28)
!26 = distinct !DISubprogram(name: "__threadfence", scope: !27, file: !27, line: 528, type: !17, scopeLine: 528, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!27 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_device_functions.h", directory: "")
!28 = distinct !DILocation(line: 14, column: 5, scope: !15)
!29 = !DILocation(line: 961, column: 3, scope: !30, inlinedAt: !32)
!30 = distinct !DISubprogram(name: "__cuda_atomic_store<unsigned int>", scope: !31, file: !31, line: 959, type: !17, scopeLine: 961, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!31 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!32 = distinct !DILocation(line: 1172, column: 5, scope: !33, inlinedAt: !34)
!33 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)0> >", scope: !31, file: !31, line: 1171, type: !17, scopeLine: 1171, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!34 = distinct !DILocation(line: 863, column: 32, scope: !35, inlinedAt: !36)
!35 = distinct !DISubprogram(name: "__cuda_atomic_store_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_store<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !31, file: !31, line: 857, type: !17, scopeLine: 857, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = distinct !DILocation(line: 1184, column: 3, scope: !37, inlinedAt: !38)
!37 = distinct !DISubprogram(name: "__atomic_store_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !31, file: !31, line: 1176, type: !17, scopeLine: 1177, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!38 = distinct !DILocation(line: 319, column: 3, scope: !39, inlinedAt: !41)
!39 = distinct !DISubprogram(name: "__atomic_store_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !40, file: !40, line: 317, type: !17, scopeLine: 318, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!41 = distinct !DILocation(line: 95, column: 6, scope: !42, inlinedAt: !44)
!42 = distinct !DISubprogram(name: "__atomic_store_dispatch<const cuda::std::__4::__atomic_ref_storage<int>, int, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !43, file: !43, line: 91, type: !17, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!43 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!44 = distinct !DILocation(line: 80, column: 3, scope: !45, inlinedAt: !47)
!45 = distinct !DISubprogram(name: "store", scope: !46, file: !46, line: 80, type: !17, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!46 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!47 = distinct !DILocation(line: 15, column: 61, scope: !15)
!48 = !{i64 9200638}
!49 = !DILocation(line: 16, column: 3, scope: !15)
!50 = !DILocation(line: 17, column: 1, scope: !15)
!51 = distinct !DISubprogram(name: "consumer", scope: !16, file: !16, line: 19, type: !17, scopeLine: 19, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!52 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !53)
!53 = distinct !DILocation(line: 20, column: 7, scope: !51)
!54 = !DILocation(line: 20, column: 19, scope: !51)
!55 = !DILocation(line: 307, column: 3, scope: !56, inlinedAt: !57)
!56 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !31, file: !31, line: 305, type: !17, scopeLine: 307, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!57 = distinct !DILocation(line: 830, column: 5, scope: !58, inlinedAt: !59)
!58 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)0> >", scope: !31, file: !31, line: 829, type: !17, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!59 = distinct !DILocation(line: 104, column: 32, scope: !60, inlinedAt: !61)
!60 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !31, file: !31, line: 97, type: !17, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!61 = distinct !DILocation(line: 842, column: 3, scope: !62, inlinedAt: !63)
!62 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !31, file: !31, line: 834, type: !17, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!63 = distinct !DILocation(line: 305, column: 3, scope: !64, inlinedAt: !65)
!64 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !40, file: !40, line: 302, type: !17, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!65 = distinct !DILocation(line: 106, column: 13, scope: !66, inlinedAt: !67)
!66 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !43, file: !43, line: 101, type: !17, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!67 = distinct !DILocation(line: 80, column: 3, scope: !68, inlinedAt: !69)
!68 = distinct !DISubprogram(name: "load", scope: !46, file: !46, line: 80, type: !17, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!69 = distinct !DILocation(line: 21, column: 68, scope: !51)
!70 = !{i64 9157522}
!71 = !DILocation(line: 21, column: 101, scope: !51)
!72 = !DILocation(line: 21, column: 5, scope: !51)
!73 = distinct !{!73, !72, !74, !75, !76}
!74 = !DILocation(line: 22, column: 5, scope: !51)
!75 = !{!"llvm.loop.mustprogress"}
!76 = !{!"llvm.loop.unroll.disable"}
!77 = !DILocation(line: 528, column: 39, scope: !26, inlinedAt: !78)
!78 = distinct !DILocation(line: 23, column: 5, scope: !51)
!79 = !DILocation(line: 24, column: 12, scope: !51)
!80 = !DILocation(line: 24, column: 10, scope: !51)
!81 = !DILocation(line: 25, column: 3, scope: !51)
!82 = !DILocation(line: 26, column: 1, scope: !51)
